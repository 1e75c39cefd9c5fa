// The HTML of the live board panel, built from the server's answer to the
// `pgn/position` request. It has no script and loads nothing: the board is the
// server's inline SVG, and the only style sheet carries the nonce that the
// content security policy allows.

/** A move as the server names it (`pgn/position` result). */
export interface BoardMove {
  label: string;
  san: string;
  from: string | null;
  to: string | null;
}

/** The result of the `pgn/position` request when the cursor is in a game. */
export interface BoardPosition {
  fen: string;
  sideToMove: 'white' | 'black';
  status: 'playing' | 'check' | 'checkmate' | 'stalemate' | 'variantEnd';
  /** With `variantEnd`: "a win for White by the rules of antichess". */
  ending?: string;
  lastMove: BoardMove | null;
  illegalMove: BoardMove | null;
  depth: number;
  diagram: string;
  svg: string;
}

/** What the panel shows: a position, or a note saying why there is none. */
export type BoardView = { position: BoardPosition } | { note: string };

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function capitalized(side: string): string {
  return side.charAt(0).toUpperCase() + side.slice(1);
}

/**
 * "Black to move", "White to move, in check", "Checkmate: White wins", "Stalemate",
 * "Game over: a win for White by the rules of antichess".
 */
export function statusText(position: BoardPosition): string {
  const side = capitalized(position.sideToMove);
  switch (position.status) {
    case 'checkmate':
      return `Checkmate: ${position.sideToMove === 'white' ? 'Black' : 'White'} wins`;
    case 'stalemate':
      return 'Stalemate';
    case 'variantEnd':
      return `Game over: ${position.ending ?? "by the variant's rules"}`;
    case 'check':
      return `${side} to move, in check`;
    default:
      return `${side} to move`;
  }
}

function positionBody(position: BoardPosition): string {
  const heading = position.lastMove
    ? `After ${escapeHtml(position.lastMove.label)}`
    : 'Start position';
  const notes: string[] = [escapeHtml(statusText(position))];
  if (position.depth > 0) {
    notes.push(`variation, depth ${position.depth}`);
  }
  const illegal = position.illegalMove
    ? `<p class="warning">${escapeHtml(position.illegalMove.label)} is not legal here: ` +
      'the board shows the position before it.</p>'
    : '';
  return (
    `<h1>${heading}</h1>` +
    `<p class="status">${notes.join(' · ')}</p>` +
    illegal +
    `<div class="board">${position.svg}</div>` +
    `<p class="fen"><code>${escapeHtml(position.fen)}</code></p>`
  );
}

/** The whole document of the panel. `nonce` must be fresh for each page. */
export function boardHtml(view: BoardView, nonce: string): string {
  const body = 'position' in view
    ? positionBody(view.position)
    : `<p class="note">${escapeHtml(view.note)}</p>`;
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'; img-src data:;`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>PGN Board</title>
<style nonce="${nonce}">
  body { color: var(--vscode-foreground); font-family: var(--vscode-font-family); padding: 0.5em 1em; }
  h1 { font-size: 1.2em; font-weight: 600; margin: 0.3em 0; }
  .status, .note { margin: 0.3em 0 0.6em; opacity: 0.9; }
  .warning { color: var(--vscode-editorWarning-foreground); }
  .board { max-width: 480px; }
  .board svg { display: block; width: 100%; height: auto; }
  .fen code { font-family: var(--vscode-editor-font-family); user-select: all; word-break: break-all; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}
