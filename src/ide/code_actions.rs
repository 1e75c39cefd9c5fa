//! Quick fixes: the certain repairs that diagnostics carry, offered where the cursor is.

use super::analysis::DocumentAnalysis;
use crate::syntax::Diagnostic;
use crate::text::{TextEdit, TextRange};

/// One repair of one diagnostic, with ranges in the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuickFix {
    pub title: String,
    pub diagnostic: Diagnostic,
    pub edits: Vec<TextEdit>,
    /// The first (best) repair of its diagnostic.
    pub preferred: bool,
}

/// The repairs of the diagnostics that overlap or touch `range`.
pub fn quick_fixes(analysis: &DocumentAnalysis, range: TextRange) -> Vec<QuickFix> {
    let mut fixes = Vec::new();
    for (start, game) in analysis.games_in(range) {
        for diagnostic in &game.diagnostics {
            let at = diagnostic.range.shift(start);
            let near = at.intersects(range) || at.touches(range.start) || range.touches(at.start);
            if !near || diagnostic.fixes.is_empty() {
                continue;
            }
            let diagnostic = diagnostic.shifted(start);
            for (i, fix) in diagnostic.fixes.iter().enumerate() {
                fixes.push(QuickFix {
                    title: fix.title.clone(),
                    diagnostic: diagnostic.clone(),
                    edits: fix.edits.clone(),
                    preferred: i == 0,
                });
            }
        }
    }
    fixes
}
