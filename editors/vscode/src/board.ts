// The "PGN: Show Board" command: a webview panel beside the editor that shows
// the position at the cursor of the last active PGN editor. The position is
// asked of the server (`pgn/position`) whenever the cursor moves or the text
// changes, debounced; the panel gets new HTML (boardHtml.ts) and runs no script.
import * as crypto from 'crypto';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { BoardPosition, BoardView, boardHtml } from './boardHtml';

const METHOD = 'pgn/position';
const DEBOUNCE_MS = 120;

export function registerBoard(
  context: vscode.ExtensionContext,
  getClient: () => LanguageClient | undefined,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('pgn.showBoard', () => BoardPanel.show(getClient)),
  );
}

function isPgn(editor: vscode.TextEditor | undefined): editor is vscode.TextEditor {
  return editor !== undefined && editor.document.languageId === 'pgn';
}

class BoardPanel {
  private static current: BoardPanel | undefined;

  private editor: vscode.TextEditor | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private request: vscode.CancellationTokenSource | undefined;
  private shown = '';
  private disposed = false;
  private readonly disposables: vscode.Disposable[] = [];

  static show(getClient: () => LanguageClient | undefined): void {
    if (BoardPanel.current) {
      BoardPanel.current.panel.reveal(undefined, true);
      BoardPanel.current.schedule();
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      'pgnBoard',
      'PGN Board',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: false, localResourceRoots: [] },
    );
    BoardPanel.current = new BoardPanel(panel, getClient);
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly getClient: () => LanguageClient | undefined,
  ) {
    const active = vscode.window.activeTextEditor;
    this.editor = isPgn(active) ? active : vscode.window.visibleTextEditors.find(isPgn);
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      vscode.window.onDidChangeTextEditorSelection((event) => this.follow(event.textEditor)),
      vscode.window.onDidChangeActiveTextEditor((editor) => this.follow(editor)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document === this.editor?.document) {
          this.schedule();
        }
      }),
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (document === this.editor?.document) {
          this.editor = undefined;
          this.schedule();
        }
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('pgn.board.orientation')) {
          this.schedule();
        }
      }),
    );
    void this.refresh();
  }

  /** Follow a PGN editor; other editors (and the panel itself) leave the board as it is. */
  private follow(editor: vscode.TextEditor | undefined): void {
    if (isPgn(editor)) {
      this.editor = editor;
      this.schedule();
    }
  }

  private schedule(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, DEBOUNCE_MS);
  }

  private async refresh(): Promise<void> {
    this.request?.cancel();
    this.request = undefined;
    const editor = this.editor;
    const client = this.getClient();
    if (!editor) {
      this.render({ note: 'Open a PGN file and place the cursor in a game.' });
      return;
    }
    if (!client || !client.isRunning()) {
      this.render({ note: 'The PGN language server is not running.' });
      return;
    }
    const source = new vscode.CancellationTokenSource();
    this.request = source;
    const orientation = vscode.workspace
      .getConfiguration('pgn')
      .get<'white' | 'black'>('board.orientation', 'white');
    const params = {
      textDocument: { uri: client.code2ProtocolConverter.asUri(editor.document.uri) },
      position: client.code2ProtocolConverter.asPosition(editor.selection.active),
      orientation,
    };
    try {
      const result = await client.sendRequest<BoardPosition | null>(METHOD, params, source.token);
      if (!source.token.isCancellationRequested) {
        this.render(result ? { position: result } : { note: 'The cursor is not in a game.' });
      }
    } catch (err) {
      if (!source.token.isCancellationRequested) {
        const reason = err instanceof Error ? err.message : String(err);
        this.render({ note: `No board: ${reason}` });
      }
    } finally {
      source.dispose();
      if (this.request === source) {
        this.request = undefined;
      }
    }
  }

  /** New HTML for the panel, unless it shows that view already (no flicker). */
  private render(view: BoardView): void {
    const key = JSON.stringify(view);
    if (this.disposed || key === this.shown) {
      return;
    }
    this.shown = key;
    this.panel.webview.html = boardHtml(view, crypto.randomBytes(16).toString('base64'));
  }

  private dispose(): void {
    BoardPanel.current = undefined;
    this.disposed = true;
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
    }
    this.request?.cancel();
    for (const d of this.disposables) {
      d.dispose();
    }
  }
}
