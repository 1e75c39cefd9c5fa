//! The game's result: the Result tag against the termination marker (§8.2.6: they must agree),
//! the marker (or, without one, the tag) against a final checkmate or stalemate (or the end a
//! variant's own rules give), and the PlyCount tag (§9.9.3).

use super::Outcome;
use super::replay::Replayed;
use super::tags::KnownTags;
use crate::syntax::{
    Code, Diagnostic, STANDARD_RESULTS, excerpt, standard_marker, standard_result,
};
use crate::text::{TextEdit, TextRange};

/// Check the result of a game whose tags are `known` and whose replay found `replayed`.
pub fn check(known: &KnownTags<'_>, src: &str, replayed: &Replayed, out: &mut Vec<Diagnostic>) {
    let &Replayed { main_line_plies, outcome, marker } = replayed;
    // A marker written in another form (`½-½`, `1:0`) is compared in the standard form.
    let marker = marker.map(|range| (range, standard_marker(&src[range])));
    let tag = known.result();
    let tag_value = tag.map(|t| t.value(src));

    let decided = outcome.result();
    let decided = decided.as_ref().map(|(expected, why)| (*expected, why.as_str()));

    // A tag value in another form of a result (`1:0`, `?`) is read as that result, which its
    // `invalid-tag-value` fix writes; one that is no result (`White wins`, empty) differs
    // from every result, and only the tag can take the marker's value. A `*` (no result
    // known, as `fmt` adds to a game without a marker) contradicts no such value.
    if let (Some((marker_range, marker)), Some(tag), Some(written)) =
        (marker, tag, tag_value.as_deref())
        && let read = standard_result(written)
        && marker != read.unwrap_or(written)
        && (read.is_some() || marker != "*")
        && let Some(inner) = tag.value_inner(src)
    {
        let value = match read {
            Some(_) => written.to_owned(),
            None => format!("\"{}\"", excerpt(written)),
        };
        let set_tag =
            (format!("Set the Result tag to {marker}"), vec![TextEdit::new(inner, marker)]);
        let change_marker = read.map(|value| {
            (format!("Change the marker to {value}"), vec![TextEdit::new(marker_range, value)])
        });
        // A game that ends in checkmate, stalemate or by its variant's rules has one result:
        // the fix writes it, in the tag, the marker or both, rather than copy one wrong value
        // over the other.
        let fixes = match decided {
            Some((expected, _)) if marker == expected => vec![set_tag],
            Some((expected, _)) if read == Some(expected) => change_marker.into_iter().collect(),
            Some((expected, _)) => vec![(
                format!("Write {expected} in the Result tag and the marker"),
                vec![TextEdit::new(inner, expected), TextEdit::new(marker_range, expected)],
            )],
            None => [Some(set_tag), change_marker].into_iter().flatten().collect(),
        };
        let message = match &decided {
            Some((_, why)) => {
                format!(
                    "the game ends with {marker} but its Result tag says {value} (it ends in {why})"
                )
            }
            None => format!("the game ends with {marker} but its Result tag says {value}"),
        };
        let mut diagnostic = Diagnostic::new(Code::ResultMismatch, marker_range, message)
            .with_related(tag.range, format!("Result tag: {value}"));
        for (title, edits) in fixes {
            diagnostic = diagnostic.with_fix(title, edits);
        }
        out.push(diagnostic);
    }

    if let (Some((expected, why)), Some((marker_range, marker))) = (decided, marker)
        && marker != "*"
        && marker != expected
    {
        let mut edits = vec![TextEdit::new(marker_range, expected)];
        if let (Some(tag), Some(inner)) = (tag, tag.and_then(|t| t.value_inner(src)))
            && tag.value(src) == marker
        {
            edits.push(TextEdit::new(inner, expected));
        }
        out.push(contradiction(marker_range, (expected, why), "the result", marker, edits));
    }

    // Without a marker, the Result tag is the game's result: the marker a fix adds copies it.
    if let (Some((expected, why)), None, Some(tag), Some(value)) =
        (decided, marker, tag, tag_value.as_deref())
        && STANDARD_RESULTS.contains(&value)
        && value != "*"
        && value != expected
        && let Some(inner) = tag.value_inner(src)
    {
        let edits = vec![TextEdit::new(inner, expected)];
        out.push(contradiction(inner, (expected, why), "its Result tag", value, edits));
    }

    // A count is compared as its digits: one past `u32` (`4294967296`) differs too.
    if let Some(tag) = known.ply_count
        && outcome != Outcome::Unknown
        && let count = tag.value(src)
        && !count.is_empty()
        && count.bytes().all(|b| b.is_ascii_digit())
        && let played = main_line_plies.to_string()
        && count.trim_start_matches('0') != played.trim_start_matches('0')
        && let Some(inner) = tag.value_inner(src)
    {
        let count = excerpt(&count);
        out.push(
            Diagnostic::new(
                Code::PlycountMismatch,
                inner,
                format!("PlyCount says {count} but the game has {main_line_plies} half-moves"),
            )
            .with_fix(format!("Set PlyCount to {played}"), vec![TextEdit::new(inner, played)]),
        );
    }
}

/// The fix of a `missing-result` (the syntax layer's, which adds the Result tag's marker, or
/// `*`) in a game that ends in checkmate, stalemate or by its variant's rules: where the tag
/// says another result, it adds the one the game's end gives, `decided`, which the fix of the
/// tag writes too, so that a fix-all leaves the two agreeing. A `*` (no result known) says
/// nothing wrong, and stays.
pub fn add_decided_marker(missing: &mut Diagnostic, decided: &str) {
    for fix in &mut missing.fixes {
        for edit in &mut fix.edits {
            let marker = edit.new_text.trim();
            if STANDARD_RESULTS.contains(&marker) && marker != "*" && marker != decided {
                edit.new_text = edit.new_text.replace(marker, decided);
                fix.title = format!("Add {decided}");
            }
        }
    }
}

/// `result-contradicts-position` at `range`: the game ends in `why`, its result `expected`, but
/// `where_` (the marker, or the Result tag) says `said`; the fix writes `expected` by `edits`.
fn contradiction(
    range: TextRange,
    (expected, why): (&str, &str),
    where_: &str,
    said: &str,
    edits: Vec<TextEdit>,
) -> Diagnostic {
    Diagnostic::new(
        Code::ResultContradictsPosition,
        range,
        format!("the game ends in {why}, but {where_} says {said}"),
    )
    .with_fix(format!("Write {expected}"), edits)
}
