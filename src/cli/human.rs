//! Diagnostics for people, in the style of rustc (rendered by `annotate-snippets`):
//! `error[code]: message`, the `--> file:line:col` line, the source lines with carets under
//! the range, related locations as labelled secondary marks, and each fix as a `help:` note.

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

use super::game_text::GameText;
use crate::syntax::{Diagnostic, Severity};
use crate::text::TextRange;

/// Renders diagnostics in colour or plain.
pub struct HumanRenderer {
    renderer: Renderer,
}

impl HumanRenderer {
    pub fn new(colour: bool) -> Self {
        let renderer = if colour { Renderer::styled() } else { Renderer::plain() };
        HumanRenderer { renderer }
    }

    /// Append `diagnostic` (game-relative ranges) of the game `text` to `out`, followed by a
    /// blank line.
    pub fn render(&self, out: &mut Vec<u8>, text: &GameText<'_>, diagnostic: &Diagnostic) {
        let primary = text.local(diagnostic.range);
        let covered = diagnostic
            .related
            .iter()
            .fold(primary, |covered, related| covered.cover(text.local(related.range)));
        let shown = text.whole_lines(covered);
        let to_span =
            |r: TextRange| (r.start - shown.start) as usize..(r.end - shown.start) as usize;

        let snippet = Snippet::source(&text.lines_text[shown])
            .path(text.file)
            .line_start(text.line_number(shown.start) as usize)
            .fold(true)
            .annotation(AnnotationKind::Primary.span(to_span(primary)))
            .annotations(diagnostic.related.iter().map(|related| {
                AnnotationKind::Context
                    .span(to_span(text.local(related.range)))
                    .label(related.message.as_str())
            }));
        let group: Group<'_> = level(diagnostic.severity)
            .primary_title(diagnostic.message.as_str())
            .id(diagnostic.code.as_str())
            .element(snippet)
            .elements(diagnostic.fixes.iter().map(|fix| Level::HELP.message(fix.title.as_str())));
        out.extend_from_slice(self.renderer.render(&[group]).as_bytes());
        out.extend_from_slice(b"\n\n");
    }
}

fn level(severity: Severity) -> Level<'static> {
    match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Information => Level::INFO,
        Severity::Hint => Level::NOTE.with_name("hint"),
    }
}
