//! Settings from `initializationOptions` and `workspace/didChangeConfiguration`:
//!
//! ```json
//! {
//!   "format": { "lineWidth": 80, "reflowComments": true, "addMissingTags": true },
//!   "diagnostics": { "limit": 1000 }
//! }
//! ```
//!
//! The same object may come wrapped in a `"pgn-lsp"` section (as VS Code sends it). Missing
//! fields take their defaults.

use serde::Deserialize;
use serde_json::Value;

use crate::fmt::FormatOptions;

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
}

impl Default for DiagnosticsSettings {
    fn default() -> Self {
        DiagnosticsSettings { limit: 1000 }
    }
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
            Value::Object(mut map) if map.contains_key("pgn-lsp") => {
                map.remove("pgn-lsp").unwrap_or_default()
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
    }
}
