//! Settings from `initializationOptions` and `workspace/didChangeConfiguration`:
//!
//! ```json
//! {
//!   "format": { "lineWidth": 80, "reflowComments": true, "addMissingTags": true },
//!   "diagnostics": { "limit": 1000, "minSeverity": "hint", "ignore": ["missing-tag"] }
//! }
//! ```
//!
//! The same object may come wrapped in a `"pgn"` section (as the VS Code extension's settings,
//! `pgn.format.lineWidth` and so on, reach the server) or a `"pgn-lsp"` one. A field that
//! `didChangeConfiguration` leaves out keeps its value from `initializationOptions`, else its
//! default: Eglot sends `{}` when nothing is configured for the workspace, just after the
//! server has started with the options of `eglot-server-programs`.
//!
//! A document's formatting options and the diagnostics shown for it also take the
//! `pgn-lsp.toml` nearest its file into account ([`Settings::format_options_with`],
//! [`Settings::diagnostic_filter_with`]; the file is found by `project_config`).

use serde::Deserialize;
use serde_json::Value;

use crate::config::{Config, codes, line_width, severity};
use crate::fmt::FormatOptions;
use crate::syntax::{Code, DiagnosticFilter, Severity};

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Settings {
    pub format: FormatSettings,
    pub diagnostics: DiagnosticsSettings,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DiagnosticsSettings {
    /// The most diagnostics published for one document (the most severe first).
    pub limit: usize,
    /// The least severe diagnostics published: `hint`, `info`, `warning` or `error`.
    #[serde(deserialize_with = "severity")]
    pub min_severity: Severity,
    /// Codes never published, nor fixed by code actions.
    #[serde(deserialize_with = "codes")]
    pub ignore: Vec<Code>,
}

impl Default for DiagnosticsSettings {
    fn default() -> Self {
        let shown = DiagnosticFilter::default();
        DiagnosticsSettings { limit: 1000, min_severity: shown.min_severity, ignore: shown.ignored }
    }
}

impl DiagnosticsSettings {
    /// The diagnostics shown, and fixed by code actions.
    pub fn filter(&self) -> DiagnosticFilter {
        DiagnosticFilter { min_severity: self.min_severity, ignored: self.ignore.clone() }
    }
}

/// The settings in `value`, out of their section if they come in one.
fn section(value: Value) -> Value {
    match value {
        Value::Object(mut map) if map.contains_key("pgn") || map.contains_key("pgn-lsp") => {
            map.remove("pgn").or_else(|| map.remove("pgn-lsp")).unwrap_or_default()
        }
        other => other,
    }
}

/// `over` written onto `into`, object by object: a field `over` leaves out (or gives as null)
/// keeps its value in `into`.
fn merge(into: &mut Value, over: Value) {
    match over {
        Value::Null => {}
        Value::Object(over) => {
            if !into.is_object() {
                *into = Value::Object(serde_json::Map::new());
            }
            if let Value::Object(into) = into {
                for (name, value) in over.into_iter().filter(|(_, value)| !value.is_null()) {
                    merge(into.entry(name).or_insert(Value::Null), value);
                }
            }
        }
        over => *into = over,
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct FormatSettings {
    #[serde(deserialize_with = "line_width")]
    pub line_width: usize,
    pub reflow_comments: bool,
    pub add_missing_tags: bool,
}

impl Default for FormatSettings {
    fn default() -> Self {
        let defaults = FormatOptions::default();
        FormatSettings {
            line_width: defaults.line_width,
            reflow_comments: defaults.reflow_comments,
            add_missing_tags: defaults.add_missing_tags,
        }
    }
}

impl Settings {
    /// Read the settings of `change` (a `didChangeConfiguration`'s), the fields it leaves out
    /// taken from `base` (the `initializationOptions`), then from the defaults.
    pub fn from_json_over(base: Value, change: Value) -> Result<Settings, serde_json::Error> {
        let mut merged = section(base);
        merge(&mut merged, section(change));
        match merged {
            Value::Null => Ok(Settings::default()),
            merged => serde_json::from_value(merged),
        }
    }

    pub fn format_options(&self) -> FormatOptions {
        FormatOptions {
            line_width: self.format.line_width,
            reflow_comments: self.format.reflow_comments,
            add_missing_tags: self.format.add_missing_tags,
            ..FormatOptions::default()
        }
    }

    /// The formatting options for a document under `project` (the `pgn-lsp.toml` nearest its
    /// file): these settings, then the file's, which win, so that the editor formats a
    /// project's files as `pgn-lsp fmt` does (an editor sends its settings' defaults too).
    pub fn format_options_with(&self, project: Option<&Config>) -> FormatOptions {
        let options = self.format_options();
        match project {
            Some(config) => config.apply(options),
            None => options,
        }
    }

    /// The diagnostics shown for a document under `project`: those both these settings and
    /// the file keep, as `pgn-lsp check` shows those both its flags and the file keep.
    pub fn diagnostic_filter_with(&self, project: Option<&Config>) -> DiagnosticFilter {
        let filter = self.diagnostics.filter();
        match project {
            Some(config) => filter.and(&config.filter()),
            None => filter,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Settings from `value` alone (`null` gives the defaults).
    fn read(value: Value) -> Result<Settings, serde_json::Error> {
        Settings::from_json_over(Value::Null, value)
    }

    #[test]
    fn settings_plain_wrapped_partial_and_wrong() {
        let s = read(json!({ "format": { "lineWidth": 60 } })).unwrap();
        assert_eq!(
            s.format_options(),
            FormatOptions { line_width: 60, ..FormatOptions::default() }
        );
        let wrapped =
            read(json!({ "pgn-lsp": { "format": { "reflowComments": false } } })).unwrap();
        assert!(!wrapped.format_options().reflow_comments);
        assert_eq!(read(Value::Null).unwrap(), Settings::default());
        assert!(read(json!({ "format": { "lineWidth": "wide" } })).is_err());
        assert!(read(json!({ "format": { "lineWidth": 1 } })).is_err(), "as `fmt --line-width`");
        let limit = read(json!({ "diagnostics": { "limit": 5 } })).unwrap();
        assert_eq!((limit.diagnostics.limit, limit.format), (5, FormatSettings::default()));
        assert_eq!(limit.diagnostics.filter(), DiagnosticFilter::default());
    }

    /// What vscode-languageclient 9 sends for `synchronize: { configurationSection: 'pgn' }`
    /// (`didChangeConfiguration`, as soon as the server is up and after every change): the
    /// whole `pgn` section, with the client's own settings in it.
    #[test]
    fn the_vs_code_extensions_section_is_read() {
        let sent = json!({ "pgn": {
            "server": { "path": "" },
            "format": { "lineWidth": 60, "reflowComments": false, "addMissingTags": true },
            "diagnostics": {
                "limit": 50, "minSeverity": "warning", "ignore": ["invalid-tag-value", "move-number"]
            },
            "board": { "orientation": "white" },
            "trace": { "server": "off" }
        } });
        let s = read(sent).unwrap();
        assert_eq!(
            s.format_options(),
            FormatOptions { line_width: 60, reflow_comments: false, ..FormatOptions::default() }
        );
        assert_eq!(s.diagnostics.limit, 50);
        assert_eq!(
            s.diagnostics.filter(),
            DiagnosticFilter {
                min_severity: Severity::Warning,
                ignored: vec![Code::InvalidTagValue, Code::MoveNumber]
            }
        );
    }

    /// The VS Code extension contributes each of the server's settings with the server's
    /// default, and offers the registry's codes and severities.
    #[test]
    fn the_vs_code_extensions_settings_are_the_servers() {
        let package = include_str!("../../editors/vscode/package.json");
        let package: Value = serde_json::from_str(package).unwrap();
        let properties = package["contributes"]["configuration"]["properties"].as_object();
        let mut section = json!({});
        let mut ignore_items = &Value::Null;
        let mut severities = &Value::Null;
        for (name, property) in properties.unwrap() {
            let path: Vec<&str> = name.split('.').collect();
            if let ["pgn", group @ ("format" | "diagnostics"), field] = path[..] {
                section[group][field] = property["default"].clone();
            }
            match name.as_str() {
                "pgn.diagnostics.ignore" => ignore_items = &property["items"],
                "pgn.diagnostics.minSeverity" => severities = &property["enum"],
                _ => {}
            }
        }
        let defaults = json!({
            "format": { "lineWidth": 80, "reflowComments": true, "addMissingTags": true },
            "diagnostics": { "limit": 1000, "minSeverity": "hint", "ignore": [] }
        });
        assert_eq!(section, defaults);
        assert_eq!(read(json!({ "pgn": section })).unwrap(), Settings::default());
        let codes: Vec<&str> = Code::ALL.iter().map(|code| code.as_str()).collect();
        assert_eq!(ignore_items["enum"], json!(codes));
        let described = ignore_items["enumDescriptions"].as_array().unwrap();
        for (code, description) in Code::ALL.iter().zip(described) {
            let expected = format!("{}: {}", code.default_severity().as_str(), code.summary());
            assert_eq!(description, &json!(expected));
        }
        assert_eq!(described.len(), codes.len());
        let mut names: Vec<&str> = Severity::ALL.iter().map(|s| s.as_str()).collect();
        names.reverse();
        assert_eq!(severities, &json!(names));
    }

    #[test]
    fn a_configuration_change_keeps_what_it_leaves_out_from_the_initialization_options() {
        let base = json!({ "pgn-lsp": {
            "format": { "lineWidth": 40, "addMissingTags": false },
            "diagnostics": { "ignore": ["missing-tag"] }
        } });
        let over = |change| Settings::from_json_over(base.clone(), change).unwrap();
        let started = over(Value::Null);
        assert_eq!((started.format.line_width, started.format.add_missing_tags), (40, false));
        assert_eq!(started.diagnostics.ignore, [Code::MissingTag]);
        // Eglot's change when nothing is configured for the workspace.
        assert_eq!(over(json!({})), started);
        let wider =
            over(json!({ "pgn": { "format": { "lineWidth": 60, "reflowComments": null } } }));
        assert_eq!(
            wider.format,
            FormatSettings { line_width: 60, reflow_comments: true, add_missing_tags: false }
        );
        // A list is replaced, not extended.
        let none_ignored = over(json!({ "diagnostics": { "ignore": [] } }));
        assert_eq!(none_ignored.diagnostics.filter(), DiagnosticFilter::default());
        assert_eq!(none_ignored.format, started.format);
    }

    #[test]
    fn unknown_severities_and_codes_are_refused() {
        let severity = json!({ "diagnostics": { "minSeverity": "information" } });
        let error = read(severity).unwrap_err().to_string();
        assert!(error.contains("unknown severity \"information\""), "{error}");
        let code = json!({ "diagnostics": { "ignore": ["missing-tag", "missing-tags"] } });
        let error = read(code).unwrap_err().to_string();
        assert!(error.contains("unknown diagnostic code \"missing-tags\""), "{error}");
        let info = json!({ "diagnostics": { "minSeverity": "info" } });
        assert_eq!(read(info).unwrap().diagnostics.min_severity, Severity::Information);
    }
}
