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
//! `pgn.format.lineWidth` and so on, reach the server) or a `"pgn-lsp"` one. Missing fields
//! take their defaults.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

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

/// A severity by the name `check --min-severity` takes.
fn severity<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Severity, D::Error> {
    let name = String::deserialize(deserializer)?;
    Severity::from_name(&name).ok_or_else(|| {
        D::Error::custom(format!("unknown severity {name:?}: hint, info, warning or error"))
    })
}

/// Diagnostic codes by name.
fn codes<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Code>, D::Error> {
    let names = Vec::<String>::deserialize(deserializer)?;
    let code = |name: String| {
        Code::from_name(&name)
            .ok_or_else(|| D::Error::custom(format!("unknown diagnostic code {name:?}")))
    };
    names.into_iter().map(code).collect()
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct FormatSettings {
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
    /// Read settings from a client's JSON (`null` gives the defaults).
    pub fn from_json(value: Value) -> Result<Settings, serde_json::Error> {
        let value = match value {
            Value::Object(mut map) if map.contains_key("pgn") || map.contains_key("pgn-lsp") => {
                map.remove("pgn").or_else(|| map.remove("pgn-lsp")).unwrap_or_default()
            }
            Value::Null => return Ok(Settings::default()),
            other => other,
        };
        serde_json::from_value(value)
    }

    pub fn format_options(&self) -> FormatOptions {
        FormatOptions {
            line_width: self.format.line_width,
            reflow_comments: self.format.reflow_comments,
            add_missing_tags: self.format.add_missing_tags,
            ..FormatOptions::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn settings_plain_wrapped_partial_and_wrong() {
        let s = Settings::from_json(json!({ "format": { "lineWidth": 60 } })).unwrap();
        assert_eq!(
            s.format_options(),
            FormatOptions { line_width: 60, ..FormatOptions::default() }
        );
        let wrapped =
            Settings::from_json(json!({ "pgn-lsp": { "format": { "reflowComments": false } } }))
                .unwrap();
        assert!(!wrapped.format_options().reflow_comments);
        assert_eq!(Settings::from_json(Value::Null).unwrap(), Settings::default());
        assert!(Settings::from_json(json!({ "format": { "lineWidth": "wide" } })).is_err());
        let limit = Settings::from_json(json!({ "diagnostics": { "limit": 5 } })).unwrap();
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
        let s = Settings::from_json(sent).unwrap();
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
        assert_eq!(Settings::from_json(json!({ "pgn": section })).unwrap(), Settings::default());
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
    fn unknown_severities_and_codes_are_refused() {
        let severity = json!({ "diagnostics": { "minSeverity": "information" } });
        let error = Settings::from_json(severity).unwrap_err().to_string();
        assert!(error.contains("unknown severity \"information\""), "{error}");
        let code = json!({ "diagnostics": { "ignore": ["missing-tag", "missing-tags"] } });
        let error = Settings::from_json(code).unwrap_err().to_string();
        assert!(error.contains("unknown diagnostic code \"missing-tags\""), "{error}");
        let info = json!({ "diagnostics": { "minSeverity": "info" } });
        assert_eq!(
            Settings::from_json(info).unwrap().diagnostics.min_severity,
            Severity::Information
        );
    }
}
