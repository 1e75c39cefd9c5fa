//! Diagnostics for people, in the style of rustc (rendered by `annotate-snippets`):
//! `error[code]: message`, the `--> file:line:col` line, the source lines with carets under
//! the range, related locations as labelled secondary marks, and each fix as a `help:` note.
//!
//! A line longer than [`LONG_LINE`] bytes is shown as an excerpt around the diagnostic (with
//! `…` where it is cut): rendering a whole 100 MB line would cost gigabytes, once per
//! diagnostic.

use annotate_snippets::{Annotation, AnnotationKind, Group, Level, Renderer, Snippet};

use super::game_text::GameText;
use super::line_breaks::count_line_breaks;
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
        let line_start = text.line_start(primary.start) as usize;
        let bytes = text.lines_text.as_bytes();
        let line_head = &bytes[line_start..bytes.len().min(line_start + LONG_LINE)];
        if line_head.len() == LONG_LINE && memchr::memchr(b'\n', line_head).is_none() {
            return self.render_excerpt(out, text, diagnostic, line_start);
        }
        let related =
            || diagnostic.related.iter().map(|r| (text.local(r.range), r.message.as_str()));
        let covered = related().fold(primary, |covered, (range, _)| covered.cover(range));
        let shown = text.whole_lines(covered);
        let shown_lines = count_line_breaks(text.lines_text[shown].as_bytes());
        let snippets = if shown_lines < MAX_SNIPPET_LINES {
            vec![snippet(text, shown, Some(primary), related())]
        } else {
            // Places far apart (a duplicate tag and the first one, thousands of lines above):
            // each in a snippet of its own lines, not all the lines between.
            let own = snippet(text, text.whole_lines(primary), Some(primary), []);
            let others = related().map(|r| snippet(text, text.whole_lines(r.0), None, [r]));
            std::iter::once(own).chain(others).collect()
        };
        self.finish(out, diagnostic, snippets);
    }

    /// A diagnostic on a long line (starting at `line_start`): an excerpt of the line around
    /// the diagnostic's start, with the marks that fall inside it. Only the excerpt is read,
    /// however long the line. The renderer counts the column in the excerpt; the location line
    /// is given the column in the file.
    fn render_excerpt(
        &self,
        out: &mut Vec<u8>,
        text: &GameText<'_>,
        diagnostic: &Diagnostic,
        line_start: usize,
    ) {
        let lines = text.lines_text;
        let primary = text.local(diagnostic.range);
        let from = primary.start as usize;
        let start = lines.floor_char_boundary(from.saturating_sub(EXCERPT_BEFORE).max(line_start));
        let reach = lines.floor_char_boundary(from + EXCERPT_AFTER);
        let end = memchr::memchr2(b'\n', b'\r', &lines.as_bytes()[start..reach])
            .map_or(reach, |i| start + i);
        let line_goes_on = end < lines.len() && !lines[end..].starts_with(['\n', '\r']);
        let cut_before = if start > line_start { "…" } else { "" };
        let cut_after = if line_goes_on { "…" } else { "" };
        let excerpt = format!("{cut_before}{}{cut_after}", &lines[start..end]);
        // A range of the lines as a span of the excerpt, clipped to it.
        let clip = |at: u32| (at as usize).clamp(start, end) - start + cut_before.len();
        let span = |r: TextRange| clip(r.start)..clip(r.end);
        let inside = |r: TextRange| r.start as usize <= end && r.end as usize >= start;
        let at = text.position(diagnostic.range.start);
        let excerpt_column = excerpt[..clip(primary.start)].chars().count() + 1;
        let related = diagnostic.related.iter().filter_map(|related| {
            let r = text.local(related.range);
            inside(r).then(|| AnnotationKind::Context.span(span(r)).label(related.message.as_str()))
        });
        let snippet = Snippet::source(excerpt.as_str())
            .path(text.file)
            .line_start(at.line as usize)
            .annotation(AnnotationKind::Primary.span(span(primary)))
            .annotations(related);
        let mut rendered = Vec::new();
        self.finish(&mut rendered, diagnostic, vec![snippet]);
        let rendered = String::from_utf8(rendered).expect("the renderer writes UTF-8");
        let wrong = format!("{}:{}:{excerpt_column}", text.file, at.line);
        let right = format!("{}:{}:{}", text.file, at.line, at.column);
        out.extend_from_slice(rendered.replacen(&wrong, &right, 1).as_bytes());
    }

    /// Render the diagnostic's title, its snippet and its fixes.
    fn finish<'a>(
        &self,
        out: &mut Vec<u8>,
        diagnostic: &'a Diagnostic,
        snippets: Vec<Snippet<'a, Annotation<'a>>>,
    ) {
        let group: Group<'_> = level(diagnostic.severity)
            .primary_title(diagnostic.message.as_str())
            .id(diagnostic.code.as_str())
            .elements(snippets)
            .elements(diagnostic.fixes.iter().map(|fix| Level::HELP.message(fix.title.as_str())));
        out.extend_from_slice(self.renderer.render(&[group]).as_bytes());
        out.extend_from_slice(b"\n\n");
    }
}

/// A snippet of the whole lines `lines` (a range of the game's lines) with the `primary` mark
/// and the labelled `context` marks.
fn snippet<'a>(
    text: &GameText<'a>,
    lines: TextRange,
    primary: Option<TextRange>,
    context: impl IntoIterator<Item = (TextRange, &'a str)>,
) -> Snippet<'a, Annotation<'a>> {
    let span = |r: TextRange| (r.start - lines.start) as usize..(r.end - lines.start) as usize;
    Snippet::source(&text.lines_text[lines])
        .path(text.file)
        .line_start(text.line_number(lines.start) as usize)
        .fold(true)
        .annotations(primary.map(|r| AnnotationKind::Primary.span(span(r))))
        .annotations(
            context
                .into_iter()
                .map(|(r, label)| AnnotationKind::Context.span(span(r)).label(label)),
        )
}

/// A diagnostic whose places span this many lines or more shows each in a snippet of its own.
const MAX_SNIPPET_LINES: u32 = 10;
/// Lines longer than this many bytes are shown as an excerpt.
const LONG_LINE: usize = 1_000;
/// How many bytes of a long line the excerpt shows before and after the diagnostic's start.
const EXCERPT_BEFORE: usize = 40;
const EXCERPT_AFTER: usize = 80;

fn level(severity: Severity) -> Level<'static> {
    match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Information => Level::INFO,
        Severity::Hint => Level::NOTE.with_name("hint"),
    }
}
