//! The outline features in protocol terms: document and workspace symbols, folding ranges,
//! semantic tokens (the legend and the relative encoding), inlay hints and selection ranges,
//! converted from the `ide` layer's plain data.

use tower_lsp::lsp_types::{
    self as lsp, DocumentSymbol, FoldingRange, FoldingRangeKind, InlayHintLabel, InlayHintTooltip,
    Location, SelectionRange, SemanticTokenModifier, SemanticTokenType, SemanticTokens,
    SemanticTokensLegend, SymbolInformation, SymbolKind, Url,
};

use super::convert::Positions;
use super::documents::Snapshot;
use crate::ide::{
    self, Fold, FoldKind, FoundGame, InlayHint, Symbol, SymbolRole, TokenModifiers, TokenType,
};
use crate::text::{LineCol, PositionEncoding, TextRange};

/// The most games a workspace-symbol query answers with.
pub const WORKSPACE_SYMBOL_LIMIT: usize = 1000;

/// The semantic token types and modifiers, in the order the tokens' indices refer to. Moves are
/// `variable`s, annotations `operator`s, commands in comments `macro`s, so that every theme
/// colours them; the modifiers are this server's own.
pub fn semantic_tokens_legend() -> SemanticTokensLegend {
    let token_type = |kind| match kind {
        TokenType::TagName => SemanticTokenType::PROPERTY,
        TokenType::TagValue => SemanticTokenType::STRING,
        TokenType::MoveNumber => SemanticTokenType::NUMBER,
        TokenType::Move => SemanticTokenType::VARIABLE,
        TokenType::Annotation => SemanticTokenType::OPERATOR,
        TokenType::Comment => SemanticTokenType::COMMENT,
        TokenType::Command => SemanticTokenType::MACRO,
        TokenType::Result => SemanticTokenType::KEYWORD,
    };
    SemanticTokensLegend {
        token_types: TokenType::ALL.into_iter().map(token_type).collect(),
        token_modifiers: TokenModifiers::NAMES
            .into_iter()
            .map(SemanticTokenModifier::new)
            .collect(),
    }
}

/// The largest document whose semantic tokens are sent as a whole (`semanticTokens/full`);
/// for a larger one the answer is `null`, and editors ask for the visible range instead
/// (`semanticTokens/range`, which has no bound). PGN gives about 190,000 tokens per 10 MB, a
/// million numbers in the answer; a 100 MB document's 19 million would take some 600 MB while
/// the protocol layer encodes them.
pub const FULL_SEMANTIC_TOKENS_MAX_BYTES: usize = 10_000_000;

/// The semantic tokens of `doc` (of the part in `range`, for a range request), encoded
/// relative to each other as the protocol wants.
pub fn semantic_tokens(
    doc: &Snapshot,
    encoding: PositionEncoding,
    range: Option<lsp::Range>,
) -> SemanticTokens {
    let positions = doc.positions(encoding);
    let range = range.map(|r| positions.text_range(r));
    let position = |offset: u32| {
        let p = positions.position(offset as usize);
        LineCol { line: p.line, col: p.character }
    };
    let mut data = Vec::new();
    let mut previous = LineCol::default();
    ide::semantic_tokens(&doc.analysis, &doc.rope, range, encoding, &position, |token| {
        let delta_line = token.start.line - previous.line;
        let delta_start =
            if delta_line == 0 { token.start.col - previous.col } else { token.start.col };
        data.push(lsp::SemanticToken {
            delta_line,
            delta_start,
            length: token.len,
            token_type: TokenType::ALL.iter().position(|&t| t == token.kind).unwrap_or(0) as u32,
            token_modifiers_bitset: token.modifiers.0,
        });
        previous = token.start;
    });
    SemanticTokens { result_id: None, data }
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
pub fn document_symbol(positions: &Positions<'_>, symbol: &Symbol) -> DocumentSymbol {
    DocumentSymbol {
        name: symbol.name.clone(),
        detail: symbol.detail.clone(),
        kind: symbol_kind(symbol.role),
        tags: None,
        deprecated: None,
        range: positions.range(symbol.range),
        selection_range: positions.range(symbol.selection),
        children: Some(symbol.children.iter().map(|c| document_symbol(positions, c)).collect()),
    }
}

fn symbol_kind(role: SymbolRole) -> SymbolKind {
    match role {
        SymbolRole::Game => SymbolKind::EVENT,
        SymbolRole::TagSection => SymbolKind::OBJECT,
        SymbolRole::Movetext => SymbolKind::ARRAY,
    }
}

#[allow(deprecated)] // `SymbolInformation::deprecated` must still be written.
pub fn workspace_symbol<K>(
    uri: &Url,
    doc: &Snapshot,
    encoding: PositionEncoding,
    game: &FoundGame<K>,
) -> SymbolInformation {
    SymbolInformation {
        name: game.name.clone(),
        kind: symbol_kind(SymbolRole::Game),
        tags: None,
        deprecated: None,
        location: Location::new(uri.clone(), doc.positions(encoding).range(game.range)),
        container_name: game.detail.clone(),
    }
}

pub fn folding_range(positions: &Positions<'_>, fold: &Fold) -> FoldingRange {
    let range = positions.range(fold.range);
    FoldingRange {
        start_line: range.start.line,
        start_character: Some(range.start.character),
        end_line: range.end.line,
        end_character: Some(range.end.character),
        kind: Some(match fold.kind {
            FoldKind::Comment => FoldingRangeKind::Comment,
            FoldKind::Game | FoldKind::TagSection | FoldKind::Variation => FoldingRangeKind::Region,
        }),
        collapsed_text: fold.collapsed_text.clone(),
    }
}

pub fn inlay_hint(positions: &Positions<'_>, hint: &InlayHint) -> lsp::InlayHint {
    lsp::InlayHint {
        position: positions.position(hint.offset as usize),
        label: InlayHintLabel::String(hint.label.clone()),
        kind: None,
        text_edits: None,
        tooltip: hint.tooltip.clone().map(InlayHintTooltip::String),
        padding_left: Some(hint.pad_left),
        padding_right: None,
        data: None,
    }
}

/// The most ranges in one chain of parents. Each is a level of nesting in the JSON, and clients
/// read JSON with a limit on nesting (serde_json's is 128, which Helix and Zed use): a cursor
/// inside thousands of nested variations would make an answer they cannot read.
const MAX_SELECTION_CHAIN: usize = 50;

/// How many of the outermost ranges a chain cut to [`MAX_SELECTION_CHAIN`] keeps (the game, its
/// movetext and the outermost variations); the others are the innermost.
const OUTERMOST_KEPT: usize = 4;

/// Ranges innermost first, as the protocol's chain of parents; `None` when there are none. A
/// chain longer than [`MAX_SELECTION_CHAIN`] keeps its innermost and outermost ranges.
pub fn selection_range(positions: &Positions<'_>, ranges: &[TextRange]) -> Option<SelectionRange> {
    let (inner, outer) = if ranges.len() > MAX_SELECTION_CHAIN {
        let outer = &ranges[ranges.len() - OUTERMOST_KEPT..];
        (&ranges[..MAX_SELECTION_CHAIN - OUTERMOST_KEPT], outer)
    } else {
        (ranges, &[][..])
    };
    inner.iter().chain(outer).rev().fold(None, |parent, &range| {
        Some(SelectionRange { range: positions.range(range), parent: parent.map(Box::new) })
    })
}
