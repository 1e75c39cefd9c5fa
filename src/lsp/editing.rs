//! Completion items and code actions in LSP terms: the `ide` results converted as the client
//! can take them, the code action kinds this server declares, and which of them a request asks
//! for.

use std::collections::HashMap;

use tower_lsp::lsp_types::{self as lsp, CodeActionKind, Url};

use super::documents::Snapshot;
use crate::ide::{ActionKind, Completion, CompletionKind};
use crate::text::PositionEncoding;

/// Kinds of this server's own: the source actions (VS Code lists them under "Source Action...").
pub const FIX_ALL: &str = "source.fixAll.pgn";
pub const SORT_TAGS: &str = "source.sortTags";
pub const FORMAT_GAME: &str = "source.formatGame";
pub const SORT_GAMES: &str = "source.sortGames";

/// The characters after which a client asks for completions unprompted: a move number's period,
/// a variation's parenthesis, `$` before a NAG, a tag's quote and bracket.
pub const COMPLETION_TRIGGERS: [&str; 5] = [".", "(", "$", "\"", "["];

/// What the client can take of edits, from its capabilities.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClientSupport {
    /// Workspace edits as versioned `documentChanges`; else as `changes` (LSP 3.17
    /// `WorkspaceEdit`).
    pub document_changes: bool,
    /// Completion items as snippets with tab stops; else as plain text (Emacs's Eglot asks for
    /// snippets only where yasnippet is installed).
    pub snippets: bool,
    /// Hovers in Markdown: unless the client lists the formats it shows and Markdown is not
    /// among them (Eglot without markdown-mode); then in plain text.
    pub markdown_hovers: bool,
}

impl ClientSupport {
    pub fn of(capabilities: &lsp::ClientCapabilities) -> ClientSupport {
        let workspace_edit =
            capabilities.workspace.as_ref().and_then(|w| w.workspace_edit.as_ref());
        let completion_item = capabilities
            .text_document
            .as_ref()
            .and_then(|t| t.completion.as_ref())
            .and_then(|c| c.completion_item.as_ref());
        let hover_formats = capabilities
            .text_document
            .as_ref()
            .and_then(|t| t.hover.as_ref())
            .and_then(|h| h.content_format.as_ref());
        ClientSupport {
            document_changes: workspace_edit.and_then(|w| w.document_changes) == Some(true),
            snippets: completion_item.and_then(|c| c.snippet_support) == Some(true),
            markdown_hovers: hover_formats.is_none_or(|f| f.contains(&lsp::MarkupKind::Markdown)),
        }
    }
}

/// The code action kinds declared in the server's capabilities.
pub fn declared_kinds() -> Vec<CodeActionKind> {
    [
        CodeActionKind::QUICKFIX,
        CodeActionKind::REFACTOR_REWRITE,
        CodeActionKind::from(FIX_ALL),
        CodeActionKind::from(SORT_TAGS),
        CodeActionKind::from(FORMAT_GAME),
        CodeActionKind::from(SORT_GAMES),
    ]
    .into()
}

fn lsp_kind(kind: ActionKind) -> CodeActionKind {
    match kind {
        ActionKind::QuickFix | ActionKind::QuickFixAll => CodeActionKind::QUICKFIX,
        ActionKind::Rewrite => CodeActionKind::REFACTOR_REWRITE,
        ActionKind::FixAll => CodeActionKind::from(FIX_ALL),
        ActionKind::SortTags => CodeActionKind::from(SORT_TAGS),
        ActionKind::FormatGame => CodeActionKind::from(FORMAT_GAME),
        ActionKind::SortGames => CodeActionKind::from(SORT_GAMES),
    }
}

/// Whether a request with this context asks for actions of `kind`. With `only`, the kinds it
/// names and their sub-kinds (`source` covers `source.sortTags`). Without it, every kind,
/// except that the actions over the whole document (fix all, fix all of a kind, sort games)
/// wait for the user to ask: the client's automatic requests follow the cursor, and in a large
/// file these actions hold tens of thousands of edits.
pub fn wants(context: &lsp::CodeActionContext, kind: ActionKind) -> bool {
    let name = lsp_kind(kind);
    match &context.only {
        Some(only) => only.iter().any(|o| {
            let (o, k) = (o.as_str(), name.as_str());
            k == o || k.strip_prefix(o).is_some_and(|rest| rest.starts_with('.'))
        }),
        None => {
            let automatic = context.trigger_kind == Some(lsp::CodeActionTriggerKind::AUTOMATIC);
            let whole_document = matches!(
                kind,
                ActionKind::FixAll | ActionKind::QuickFixAll | ActionKind::SortGames
            );
            !(automatic && whole_document)
        }
    }
}

/// An `ide` code action as an LSP one: its edits as one versioned document edit, or as the
/// document's plain edits where the client takes no `documentChanges`.
pub fn code_action(
    doc: &Snapshot,
    uri: &Url,
    encoding: PositionEncoding,
    client: ClientSupport,
    action: crate::ide::CodeAction,
) -> lsp::CodeActionOrCommand {
    let positions = doc.positions(encoding);
    let edits = action.edits.iter().map(|e| positions.text_edit(e));
    let edit = if client.document_changes {
        let edit = lsp::TextDocumentEdit {
            text_document: lsp::OptionalVersionedTextDocumentIdentifier {
                uri: uri.clone(),
                version: doc.version,
            },
            edits: edits.map(lsp::OneOf::Left).collect(),
        };
        lsp::WorkspaceEdit {
            document_changes: Some(lsp::DocumentChanges::Edits(vec![edit])),
            ..lsp::WorkspaceEdit::default()
        }
    } else {
        lsp::WorkspaceEdit {
            changes: Some(HashMap::from([(uri.clone(), edits.collect())])),
            ..lsp::WorkspaceEdit::default()
        }
    };
    let diagnostics: Vec<lsp::Diagnostic> =
        action.diagnostics.iter().map(|d| positions.diagnostic(uri, d)).collect();
    lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
        title: action.title,
        kind: Some(lsp_kind(action.kind)),
        diagnostics: (!diagnostics.is_empty()).then_some(diagnostics),
        edit: Some(edit),
        is_preferred: matches!(action.kind, ActionKind::QuickFix | ActionKind::QuickFixAll)
            .then_some(action.preferred),
        ..lsp::CodeAction::default()
    })
}

/// `ide` completions as an LSP list, in their order (`sortText` keeps it), each with a text
/// edit over the partly typed word; snippets without their tab stops where the client takes no
/// snippets.
pub fn completion_list(
    doc: &Snapshot,
    encoding: PositionEncoding,
    client: ClientSupport,
    items: Vec<Completion>,
) -> lsp::CompletionList {
    let positions = doc.positions(encoding);
    let width = items.len().to_string().len();
    let items = items
        .into_iter()
        .enumerate()
        .map(|(i, mut item)| {
            let snippet = item.snippet && client.snippets;
            if item.snippet && !snippet {
                item.edit.new_text = without_tab_stops(&item.edit.new_text);
            }
            lsp::CompletionItem {
                kind: Some(match item.kind {
                    CompletionKind::Move => lsp::CompletionItemKind::VALUE,
                    CompletionKind::Result => lsp::CompletionItemKind::CONSTANT,
                    CompletionKind::Nag => lsp::CompletionItemKind::OPERATOR,
                    CompletionKind::TagName => lsp::CompletionItemKind::PROPERTY,
                    CompletionKind::TagValue => lsp::CompletionItemKind::ENUM_MEMBER,
                }),
                detail: Some(item.detail),
                documentation: item.documentation.map(|value| {
                    lsp::Documentation::MarkupContent(lsp::MarkupContent {
                        kind: lsp::MarkupKind::Markdown,
                        value,
                    })
                }),
                sort_text: Some(format!("{i:0width$}")),
                filter_text: Some(item.label.clone()),
                insert_text_format: Some(if snippet {
                    lsp::InsertTextFormat::SNIPPET
                } else {
                    lsp::InsertTextFormat::PLAIN_TEXT
                }),
                text_edit: Some(lsp::CompletionTextEdit::Edit(positions.text_edit(&item.edit))),
                label: item.label,
                ..lsp::CompletionItem::default()
            }
        })
        .collect();
    lsp::CompletionList { is_incomplete: false, items }
}

/// A snippet as plain text: its tab stops (`$1`, `$0`) left out. The completions' snippets
/// have no other syntax.
fn without_tab_stops(snippet: &str) -> String {
    let mut text = String::with_capacity(snippet.len());
    let mut rest = snippet;
    while let Some(at) = rest.find('$') {
        text.push_str(&rest[..at]);
        rest = rest[at + 1..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    text.push_str(rest);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context(
        only: Option<Vec<&'static str>>,
        trigger: Option<lsp::CodeActionTriggerKind>,
    ) -> lsp::CodeActionContext {
        lsp::CodeActionContext {
            diagnostics: Vec::new(),
            only: only.map(|o| o.into_iter().map(CodeActionKind::from).collect()),
            trigger_kind: trigger,
        }
    }

    #[test]
    fn snippets_lose_their_tab_stops_as_plain_text() {
        assert_eq!(without_tab_stops("[Site \"$1\"]$0"), "[Site \"\"]");
        assert_eq!(without_tab_stops("Nf3"), "Nf3");
    }

    #[test]
    fn only_names_kinds_and_their_sub_kinds() {
        let source = context(Some(vec!["source"]), None);
        assert!(wants(&source, ActionKind::SortTags) && wants(&source, ActionKind::FixAll));
        assert!(!wants(&source, ActionKind::QuickFix));
        let fix_all = context(Some(vec!["source.fixAll"]), None);
        assert!(wants(&fix_all, ActionKind::FixAll) && !wants(&fix_all, ActionKind::SortGames));
        // A prefix of a kind's name that is not a whole part of it does not count.
        assert!(!wants(&context(Some(vec!["source.sort"]), None), ActionKind::SortTags));
    }

    #[test]
    fn whole_document_actions_wait_for_the_user_to_ask() {
        let automatic = context(None, Some(lsp::CodeActionTriggerKind::AUTOMATIC));
        assert!(wants(&automatic, ActionKind::QuickFix) && wants(&automatic, ActionKind::SortTags));
        assert!(
            !wants(&automatic, ActionKind::FixAll) && !wants(&automatic, ActionKind::SortGames)
        );
        let invoked = context(None, Some(lsp::CodeActionTriggerKind::INVOKED));
        assert!(wants(&invoked, ActionKind::SortGames));
        assert!(wants(&context(None, None), ActionKind::FixAll));
    }
}
