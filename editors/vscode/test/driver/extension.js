// Test driver for editors/vscode/test/run.sh. Installed beside the pgn-lsp extension in a
// real VS Code (code-server), it opens copies of editors/fixtures and checks through the
// VS Code API what a user of the extension gets: the diagnostics of a file too large for
// VS Code to hand to extensions, the language, the server's diagnostics, completion, the
// outline, semantic tokens, folding and selection ranges, workspace symbols, an untitled
// document and its inlay hints, hover, format on save (also after a settings change), the
// quick fix, a pgn-lsp.toml written and deleted, the board panel and the restart command. It stops at the first failure. Each
// check appends a line to the file named by PGN_E2E_RESULTS: "ok - ..." or "not ok - ...",
// and "done" at the end.
'use strict';
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');

const TIMEOUT_MS = Number(process.env.PGN_TEST_TIMEOUT_MS || 30000);
const EXTENSION_ID = 'pgn-lsp.pgn-lsp';
const FEN_AFTER_NF3 = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2';

function activate() {
  const results = process.env.PGN_E2E_RESULTS;
  if (!results) {
    return;
  }
  const say = (line) => fs.appendFileSync(results, `${line}\n`);
  run(say).then(
    () => say('done'),
    (err) => {
      say(`not ok - ${err instanceof Error ? err.message : String(err)}`);
      say('done');
    },
  );
}

function deactivate() {}

async function run(say) {
  const dir = process.env.PGN_E2E_DIR;
  const uri = (name) => vscode.Uri.file(path.join(dir, name));

  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  check(extension, `the extension ${EXTENSION_ID} is not installed`);

  await waitFor('the extension to activate at startup', () => extension.isActive);
  const server = path.join(extension.extensionPath, 'server', 'pgn-lsp');
  check(processesOf(server) === 0, 'a pgn-lsp server runs before any PGN file was shown');
  say('ok - the extension activates at startup, and starts no server before a PGN file is shown');

  await checkLargeFile(uri('illegal.pgn'), uri('large.pgn'), say);

  const illegal = await open(uri('illegal.pgn'));
  check(illegal.languageId === 'pgn', `illegal.pgn has language "${illegal.languageId}", expected "pgn"`);
  say('ok - illegal.pgn opens as pgn');

  const diagnostic = await waitFor('an illegal-move diagnostic on illegal.pgn', () =>
    diagnosticWith(illegal.uri, 'illegal-move'),
  );
  const expected = new vscode.Range(9, 3, 9, 6);
  check(
    diagnostic.range.isEqual(expected) && diagnostic.severity === vscode.DiagnosticSeverity.Error,
    `the illegal-move diagnostic is at ${show(diagnostic.range)} with severity ${diagnostic.severity}, ` +
      `expected an error at ${show(expected)} (3. Nf3)`,
  );
  say(`ok - diagnostic at ${show(diagnostic.range)}: [${codeOf(diagnostic)}] ${diagnostic.message}`);

  const third = illegal.positionAt(illegal.getText().indexOf('3. Nf3') + 3);
  const completion = await vscode.commands.executeCommand(
    'vscode.executeCompletionItemProvider',
    illegal.uri,
    third,
  );
  const offered = new Map(
    completion.items.map((item) => [typeof item.label === 'string' ? item.label : item.label.label, item]),
  );
  const bb5 = offered.get('Bb5');
  check(
    bb5 && bb5.detail === 'bishop from f1' && !offered.has('Nf3') && !offered.has('Nc6'),
    `completion before 3. Nf3 should offer Bb5 (bishop from f1) and no illegal move; got ${[...offered.keys()]}`,
  );
  say(`ok - completion at 3. offers ${offered.size} legal moves, Bb5 among them (${bb5.detail})`);

  const symbols = await vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', illegal.uri);
  const names = (symbols || []).map((symbol) => symbol.name);
  check(
    names.length === 1 && names[0] === 'White – Black, *',
    `the outline of illegal.pgn should be its one game, "White – Black, *"; got ${JSON.stringify(names)}`,
  );
  say(`ok - the outline lists the game: ${names[0]}`);

  const legend = await vscode.commands.executeCommand('vscode.provideDocumentSemanticTokensLegend', illegal.uri);
  const tokens = await vscode.commands.executeCommand('vscode.provideDocumentSemanticTokens', illegal.uri);
  // The first token, as [line, start, length] and its type: the tag name `Event`.
  const first = tokens ? [...tokens.data.slice(0, 3), legend.tokenTypes[tokens.data[3]]] : [];
  check(
    JSON.stringify(first) === JSON.stringify([0, 1, 5, 'property']),
    `the first semantic token of illegal.pgn should be the tag name Event (0, 1, 5, property); got ${first}`,
  );
  say(`ok - semantic tokens: ${tokens.data.length / 5}, the first the tag name Event`);

  const folds = await vscode.commands.executeCommand('vscode.executeFoldingRangeProvider', illegal.uri);
  check(
    (folds || []).some((fold) => fold.start === 0 && fold.end === 9),
    `folding ranges of illegal.pgn should fold the game (lines 1 to 10); got ${JSON.stringify(folds)}`,
  );
  const illegalNf3 = illegal.positionAt(illegal.getText().indexOf('Nf3 Nf6') + 1);
  const [selection] = await vscode.commands.executeCommand('vscode.executeSelectionRangeProvider', illegal.uri, [
    illegalNf3,
  ]);
  check(
    selection && illegal.getText(selection.range) === 'Nf3' && illegal.getText(selection.parent.range) === '3. Nf3',
    `expanding the selection from Nf3 should give Nf3, then 3. Nf3; got ${JSON.stringify(selection)}`,
  );
  const found = await vscode.commands.executeCommand('vscode.executeWorkspaceSymbolProvider', 'white');
  check(
    (found || []).some((symbol) => symbol.name === 'White – Black, *' && symbol.location.uri.fsPath === illegal.uri.fsPath),
    `the workspace symbols for "white" should hold illegal.pgn's game; got ${JSON.stringify(found)}`,
  );
  say('ok - folding ranges, selection ranges and workspace symbols');

  const content = '1. e4 $14 {[%clk 0:01:02]} e5 2. Ke3 *\n';
  const scratch = await vscode.workspace.openTextDocument({ language: 'pgn', content });
  await vscode.window.showTextDocument(scratch);
  await waitFor('an illegal-move diagnostic on an untitled PGN document', () =>
    diagnosticWith(scratch.uri, 'illegal-move'),
  );
  const whole = new vscode.Range(0, 0, 1, 0);
  const hints = await vscode.commands.executeCommand('vscode.executeInlayHintProvider', scratch.uri, whole);
  const labels = (hints || []).map((hint) =>
    typeof hint.label === 'string' ? hint.label : hint.label.map((part) => part.value).join(''),
  );
  check(
    labels.some((label) => label.includes('⩲')) && labels.some((label) => label.includes('1:02 left')),
    `inlay hints of ${JSON.stringify(content)} should read ⩲ and 1:02 left; got ${JSON.stringify(labels)}`,
  );
  say(`ok - an untitled PGN document (${scratch.uri.toString()}) gets its diagnostics and inlay hints`);

  const messy = await open(uri('messy.pgn'));
  const nf3 = messy.positionAt(messy.getText().indexOf('Nf3') + 1);
  const hovers = await vscode.commands.executeCommand('vscode.executeHoverProvider', messy.uri, nf3);
  const hoverText = (hovers || [])
    .flatMap((hover) => hover.contents)
    .map((content) => (typeof content === 'string' ? content : content.value))
    .join('\n');
  check(
    new RegExp('```\\w*\\n' + escapeRegExp(FEN_AFTER_NF3) + '\\n```').test(hoverText),
    `hover on Nf3 has no code block with the FEN ${FEN_AFTER_NF3}; got:\n${hoverText}`,
  );
  say(`ok - hover on Nf3 shows ${FEN_AFTER_NF3}`);

  await saveFormatted(messy, '1. e4 e5 2. Nf3 Nc6 *');
  say('ok - saving messy.pgn formats it (editor.formatOnSave from the extension\'s defaults)');

  await vscode.workspace
    .getConfiguration('pgn')
    .update('format.lineWidth', 20, vscode.ConfigurationTarget.Global);
  await saveFormatted(messy, '1. e4 e5 2. Nf3 Nc6\n*');
  say('ok - after setting pgn.format.lineWidth to 20, saving wraps the moves at 20');

  const fixable = await open(uri('fixable.pgn'));
  const warning = await waitFor('a non-canonical-san diagnostic on fixable.pgn', () =>
    diagnosticWith(fixable.uri, 'non-canonical-san'),
  );
  const actions = await vscode.commands.executeCommand(
    'vscode.executeCodeActionProvider',
    fixable.uri,
    warning.range,
    vscode.CodeActionKind.QuickFix.value,
  );
  const preferred = (actions || []).find((action) => action.isPreferred && action.edit);
  check(preferred, `no preferred quick fix for ${warning.message}`);
  check(await vscode.workspace.applyEdit(preferred.edit), `the quick fix "${preferred.title}" was not applied`);
  const line = fixable.lineAt(warning.range.start.line).text;
  check(line.includes('4. O-O Nf6'), `after the quick fix the line reads ${line}`);
  await waitFor('the non-canonical-san diagnostic to go once fixed', () =>
    !diagnosticWith(fixable.uri, 'non-canonical-san'),
  );
  say(`ok - quick fix "${preferred.title}" applied, and its diagnostic gone: ${line}`);

  // No edit of illegal.pgn: the server is told of the settings file by VS Code's file watcher.
  const settingsFile = path.join(dir, 'pgn-lsp.toml');
  fs.writeFileSync(settingsFile, '[diagnostics]\nignore = ["illegal-move"]\n');
  await waitFor('the illegal move of illegal.pgn to go once a pgn-lsp.toml ignores illegal-move', () =>
    !diagnosticWith(illegal.uri, 'illegal-move'),
  );
  fs.unlinkSync(settingsFile);
  await waitFor('the illegal move of illegal.pgn to come back once the pgn-lsp.toml is deleted', () =>
    diagnosticWith(illegal.uri, 'illegal-move'),
  );
  say('ok - a pgn-lsp.toml written beside illegal.pgn that ignores illegal-move hides its diagnostic at once, and deleting it brings it back');

  const editor = await vscode.window.showTextDocument(messy);
  editor.selection = new vscode.Selection(nf3, nf3);
  await vscode.commands.executeCommand('pgn.showBoard');
  await waitFor('the board panel', () =>
    tabs().some((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('pgnBoard')),
  );
  say('ok - PGN: Show Board opens the board panel');

  // Stopping the client disposes of its diagnostics, so the ones found now are the new server's.
  await vscode.commands.executeCommand('pgn.restartServer');
  await waitFor('the restarted server to report the illegal move again', () =>
    diagnosticWith(illegal.uri, 'illegal-move'),
  );
  await waitFor('the server before the restart to end, and one server to run', () => processesOf(server) === 1);
  say('ok - PGN: Restart Server starts a new server, which reports the illegal move again, and the old one ends');
}

/**
 * A file over 50 MB, which VS Code hands to no extension: illegal.pgn's game repeated. Opened
 * first, it must start the server, which reads it from disk: its diagnostics, then those of
 * the file changed on disk, then none once its tab is closed.
 */
async function checkLargeFile(gameUri, largeUri, say) {
  const game = `${fs.readFileSync(gameUri.fsPath, 'utf8')}\n`;
  const count = Math.ceil((51 * 1024 * 1024) / game.length);
  fs.writeFileSync(largeUri.fsPath, game.repeat(count));
  await vscode.commands.executeCommand('vscode.open', largeUri);
  check(
    !vscode.workspace.textDocuments.some((document) => document.uri.toString() === largeUri.toString()),
    'VS Code handed large.pgn to the extensions: it is no test of a file too large for that',
  );
  const diagnostics = () => vscode.languages.getDiagnostics(largeUri);
  const first = await waitFor('diagnostics of large.pgn', () => diagnostics().length > 0 && diagnostics());
  // The first 1000 (pgn.diagnostics.limit), then the note of how many more there are.
  const [shown, note] = [first.slice(0, 1000), first[1000]];
  const firstRange = new vscode.Range(9, 3, 9, 6);
  check(
    first.length === 1001 &&
      shown.every((d) => codeOf(d) === 'illegal-move') &&
      shown[0].range.isEqual(firstRange) &&
      note.message.startsWith(`${count - 1000} more diagnostics are not shown`),
    `large.pgn (${count} games, each with the illegal 3. Nf3) should show 1000 illegal-move diagnostics ` +
      `from ${show(firstRange)} and a note of ${count - 1000} more; got ${first.length}: ` +
      `the first ${first[0].message} at ${show(first[0].range)}, the last ${first[first.length - 1].message}`,
  );
  say(
    `ok - large.pgn (51 MB, too large for VS Code to hand to extensions) opened first: the server ` +
      `starts and reads it, 1000 of its ${count} illegal moves shown and a note of the others`,
  );

  const legal = game.replace('3. Nf3', '3. Bc4');
  fs.writeFileSync(largeUri.fsPath, legal.repeat(count - 1) + game);
  const lastGameLine = (count - 1) * (game.split('\n').length - 1);
  const last = firstRange.with(firstRange.start.translate(lastGameLine), firstRange.end.translate(lastGameLine));
  await waitFor(`the one illegal move of large.pgn changed on disk, at ${show(last)}`, () => {
    const now = diagnostics();
    return now.length === 1 && now[0].range.isEqual(last);
  });
  say('ok - large.pgn changed on disk: the server reads it again');

  const tab = tabs().find(
    (t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === largeUri.toString(),
  );
  await vscode.window.tabGroups.close(tab);
  await waitFor('the diagnostics of large.pgn to go with its tab', () => diagnostics().length === 0);
  say('ok - large.pgn closed: its diagnostics are gone');
}

/**
 * Edit `document` (a space at its end) and save it until the file saved is its tags, a blank
 * line, `movetext` and a blank line: the export format's layout (§8.1.1, §8.2.1).
 */
async function saveFormatted(document, movetext) {
  const file = document.uri.fsPath;
  await waitFor(`the saved ${path.basename(file)} to end with ${JSON.stringify(movetext)}`, async () => {
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, document.positionAt(document.getText().length), ' ');
    await vscode.workspace.applyEdit(edit);
    await document.save();
    const saved = fs.readFileSync(file, 'utf8');
    return saved.endsWith(`"]\n\n${movetext}\n\n`) && saved === document.getText();
  });
}

async function open(uri) {
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document);
  return document;
}

/** How many processes run the executable `file`. */
function processesOf(file) {
  return fs
    .readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] === file;
      } catch {
        return false;
      }
    }).length;
}

/** The tabs of every tab group. */
function tabs() {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs);
}

/** The first diagnostic of `uri` with `code`, if any. */
function diagnosticWith(uri, code) {
  return vscode.languages.getDiagnostics(uri).find((d) => codeOf(d) === code);
}

function codeOf(diagnostic) {
  const code = diagnostic.code;
  return typeof code === 'object' && code !== null ? code.value : code;
}

function show(range) {
  return `${range.start.line + 1}:${range.start.character + 1}-${range.end.line + 1}:${range.end.character + 1}`;
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function check(condition, message) {
  if (!condition) {
    throw new Error(message);
  }
}

/** Poll `probe` until it gives a truthy value, for at most TIMEOUT_MS. */
async function waitFor(what, probe) {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const value = await probe();
    if (value) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${TIMEOUT_MS} ms waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

module.exports = { activate, deactivate };
