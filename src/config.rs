//! `pgn-lsp.toml`: project settings, found in the directory of the file being worked on or the
//! nearest directory above it. `pgn-lsp fmt` applies the formatting settings under its flags,
//! the language server over the editor's settings; the diagnostics that `check` and the server
//! show are those both the file and the flags (or the editor's settings) keep. Keys (all
//! optional):
//!
//! ```toml
//! line-width = 80          # lines are shorter than this (§8.2.1)
//! reflow-comments = true   # re-flow the whitespace inside { } comments
//! add-missing-tags = true  # add missing Seven Tag Roster tags
//! reduced = false          # reduced export format (§3.2.4): deletes commentary and variations
//!
//! [diagnostics]
//! min-severity = "hint"    # the least severe shown: hint, info, warning or error
//! ignore = []              # codes never shown, nor fixed
//! ```

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};

use crate::fmt::FormatOptions;
use crate::syntax::{Code, DiagnosticFilter, Severity};

/// The file name looked for.
pub const FILE_NAME: &str = "pgn-lsp.toml";

/// The smallest line width that leaves room for a character.
pub const MIN_LINE_WIDTH: usize = 2;

/// The settings of one `pgn-lsp.toml`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Config {
    #[serde(default, deserialize_with = "optional_line_width")]
    pub line_width: Option<usize>,
    pub reflow_comments: Option<bool>,
    pub add_missing_tags: Option<bool>,
    pub reduced: Option<bool>,
    #[serde(default)]
    pub diagnostics: DiagnosticsConfig,
}

/// The `[diagnostics]` table of a `pgn-lsp.toml`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct DiagnosticsConfig {
    #[serde(default, deserialize_with = "optional_severity")]
    pub min_severity: Option<Severity>,
    #[serde(default, deserialize_with = "codes")]
    pub ignore: Vec<Code>,
}

impl Config {
    /// `options` with the settings this file makes.
    pub fn apply(&self, mut options: FormatOptions) -> FormatOptions {
        if let Some(width) = self.line_width {
            options.line_width = width;
        }
        if let Some(reflow) = self.reflow_comments {
            options.reflow_comments = reflow;
        }
        if let Some(add) = self.add_missing_tags {
            options.add_missing_tags = add;
        }
        if let Some(reduced) = self.reduced {
            options.reduced = reduced;
        }
        options
    }

    /// The diagnostics this file lets through.
    pub fn filter(&self) -> DiagnosticFilter {
        DiagnosticFilter {
            min_severity: self.diagnostics.min_severity.unwrap_or(Severity::Hint),
            ignored: self.diagnostics.ignore.clone(),
        }
    }

    /// Read and check the settings in `path`.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let error = |message: String| ConfigError { path: path.to_owned(), message };
        let text = std::fs::read_to_string(path).map_err(|e| error(e.to_string()))?;
        toml::from_str(&text).map_err(|e| error(e.message().to_owned()))
    }
}

/// A severity by the name `check --min-severity` takes.
pub fn severity<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Severity, D::Error> {
    let name = String::deserialize(deserializer)?;
    Severity::from_name(&name).ok_or_else(|| {
        D::Error::custom(format!("unknown severity {name:?}: hint, info, warning or error"))
    })
}

fn optional_severity<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Severity>, D::Error> {
    severity(d).map(Some)
}

/// A line width, at least [`MIN_LINE_WIDTH`].
pub fn line_width<'de, D: Deserializer<'de>>(deserializer: D) -> Result<usize, D::Error> {
    let width = usize::deserialize(deserializer)?;
    if width < MIN_LINE_WIDTH {
        return Err(D::Error::custom(format!("line-width must be at least {MIN_LINE_WIDTH}")));
    }
    Ok(width)
}

fn optional_line_width<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    line_width(d).map(Some)
}

/// Diagnostic codes by name.
pub fn codes<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Code>, D::Error> {
    let names = Vec::<String>::deserialize(deserializer)?;
    let code = |name: String| {
        Code::from_name(&name)
            .ok_or_else(|| D::Error::custom(format!("unknown diagnostic code {name:?}")))
    };
    names.into_iter().map(code).collect()
}

/// A settings file that cannot be read or is not valid.
#[derive(Debug)]
pub struct ConfigError {
    pub path: PathBuf,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

/// Finds the settings for directories, reading each settings file once.
#[derive(Default)]
pub struct ConfigFinder {
    /// Directory → the settings that apply there (`None`: no settings file up to the root).
    found: HashMap<PathBuf, Option<Config>>,
}

impl ConfigFinder {
    /// The settings for files in `dir`: those of the nearest `pgn-lsp.toml` in `dir` or above.
    pub fn for_dir(&mut self, dir: &Path) -> Result<Option<Config>, ConfigError> {
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_owned());
        if let Some(known) = self.found.get(&dir) {
            return Ok(known.clone());
        }
        let candidate = dir.join(FILE_NAME);
        let config = if candidate.is_file() {
            Some(Config::load(&candidate)?)
        } else {
            match dir.parent() {
                Some(parent) => self.for_dir(parent)?,
                None => None,
            }
        };
        self.found.insert(dir, config.clone());
        Ok(config)
    }

    /// The settings for `file` (`-`: standard input, for which the current directory counts).
    pub fn for_file(&mut self, file: &str) -> Result<Option<Config>, ConfigError> {
        let dir = match Path::new(file).parent() {
            Some(parent) if file != "-" && !parent.as_os_str().is_empty() => parent.to_owned(),
            _ => PathBuf::from("."),
        };
        self.for_dir(&dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, text: &str) {
        std::fs::write(dir.join(FILE_NAME), text).unwrap();
    }

    #[test]
    fn nearest_file_above_applies() {
        let root = tempfile::tempdir().unwrap();
        let nested = root.path().join("a/b");
        std::fs::create_dir_all(&nested).unwrap();
        write(root.path(), "line-width = 60\nreflow-comments = false\n");
        let config = ConfigFinder::default().for_dir(&nested).unwrap().unwrap();
        let options = config.apply(FormatOptions::default());
        assert_eq!(options.line_width, 60);
        assert!(!options.reflow_comments);
        assert!(options.add_missing_tags && !options.reduced);

        write(&root.path().join("a"), "reduced = true\n");
        let config = ConfigFinder::default().for_dir(&nested).unwrap().unwrap();
        let options = config.apply(FormatOptions::default());
        assert_eq!(options, FormatOptions { reduced: true, ..FormatOptions::default() });
    }

    #[test]
    fn the_diagnostics_table_gives_a_filter() {
        let root = tempfile::tempdir().unwrap();
        write(root.path(), "line-width = 60\n");
        let config = ConfigFinder::default().for_dir(root.path()).unwrap().unwrap();
        assert_eq!(config.filter(), DiagnosticFilter::default());
        write(
            root.path(),
            "[diagnostics]\nmin-severity = \"info\"\nignore = [\"non-standard-termination\"]\n",
        );
        let config = ConfigFinder::default().for_dir(root.path()).unwrap().unwrap();
        let filter = DiagnosticFilter {
            min_severity: Severity::Information,
            ignored: vec![Code::NonStandardTermination],
        };
        assert_eq!(config.filter(), filter);
        assert_eq!(config.apply(FormatOptions::default()), FormatOptions::default());
        let wrong = [
            ("ignore = [\"no-such-code\"]", "no-such-code"),
            ("min-severity = \"fatal\"", "fatal"),
            ("limit = 5", "limit"),
        ];
        for (line, named) in wrong {
            write(root.path(), &format!("[diagnostics]\n{line}\n"));
            let e = ConfigFinder::default().for_dir(root.path()).unwrap_err();
            assert!(e.message.contains(named), "{line}: {e}");
        }
    }

    #[test]
    fn unknown_keys_and_bad_values_are_errors() {
        let root = tempfile::tempdir().unwrap();
        write(root.path(), "line-widht = 60\n");
        let e = ConfigFinder::default().for_dir(root.path()).unwrap_err();
        assert!(e.message.contains("line-widht"), "{e}");
        write(root.path(), "line-width = 1\n");
        let e = ConfigFinder::default().for_dir(root.path()).unwrap_err();
        assert!(e.message.contains("at least 2"), "{e}");
        write(root.path(), "reduced = \"yes\"\n");
        assert!(ConfigFinder::default().for_dir(root.path()).is_err());
    }
}
