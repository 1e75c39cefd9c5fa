// Unit tests of the board panel's HTML (run with `npm test`, no VS Code needed).
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { BoardPosition, boardHtml, statusText } from '../boardHtml';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 360 360"><title>t</title></svg>';

function position(overrides: Partial<BoardPosition> = {}): BoardPosition {
  return {
    fen: 'r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4',
    sideToMove: 'black',
    status: 'checkmate',
    lastMove: { label: '4. Qxf7#', san: 'Qxf7#', from: 'h5', to: 'f7' },
    illegalMove: null,
    depth: 0,
    diagram: '',
    svg: SVG,
    ...overrides,
  };
}

test('a position shows the move that led to it, the status, the SVG and the FEN', () => {
  const html = boardHtml({ position: position() }, 'abc123');
  assert.match(html, /<h1>After 4\. Qxf7#<\/h1>/);
  assert.match(html, /<p class="status">Checkmate: White wins<\/p>/);
  assert.ok(html.includes(`<div class="board">${SVG}</div>`));
  assert.match(html, /<code>r1bqkb1r\/pppp1Qpp\/2n2n2\/4p3\/2B1P3\/8\/PPPP1PPP\/RNB1K1NR b KQkq - 0 4<\/code>/);
});

test('the page runs no script and loads nothing; its style sheet has the nonce', () => {
  const html = boardHtml({ position: position() }, 'abc123');
  assert.ok(
    html.includes(
      `content="default-src 'none'; style-src 'nonce-abc123'; img-src data:;"`,
    ),
  );
  assert.ok(html.includes('<style nonce="abc123">'));
  assert.doesNotMatch(html, /<script/i);
  assert.doesNotMatch(html, /(src|href)=/i);
});

test('the start position, a variation and an illegal move', () => {
  const start = boardHtml({ position: position({ lastMove: null, status: 'playing', sideToMove: 'white' }) }, 'n');
  assert.match(start, /<h1>Start position<\/h1>/);
  assert.match(start, /<p class="status">White to move<\/p>/);
  const illegal = position({
    status: 'check',
    depth: 2,
    illegalMove: { label: '5. K<e3>', san: 'K<e3>', from: null, to: null },
  });
  const html = boardHtml({ position: illegal }, 'n');
  assert.match(html, /<p class="status">Black to move, in check · variation, depth 2<\/p>/);
  assert.match(html, /5\. K&lt;e3&gt; is not legal here/);
  assert.doesNotMatch(html, /K<e3>/);
});

test('a note is escaped', () => {
  const html = boardHtml({ note: 'No board: <"oops">' }, 'n');
  assert.match(html, /<p class="note">No board: &lt;&quot;oops&quot;&gt;<\/p>/);
});

test('status texts', () => {
  assert.equal(statusText(position({ status: 'stalemate' })), 'Stalemate');
  assert.equal(statusText(position({ status: 'checkmate', sideToMove: 'white' })), 'Checkmate: Black wins');
  assert.equal(statusText(position({ status: 'playing', sideToMove: 'black' })), 'Black to move');
  const ending = 'a win for White by the rules of antichess';
  assert.equal(statusText(position({ status: 'variantEnd', ending })), `Game over: ${ending}`);
});
