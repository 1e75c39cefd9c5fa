// PGN files over VS Code's limit for synchronising documents with extensions (50 MB): VS Code
// gives the language client no document for them, so the server would never hear of them.
// While a tab shows such a file, the server is asked to read it from disk (`pgn/openFile`),
// again whenever it changes on disk (a save), and to forget it (`pgn/closeFile`) once no tab
// shows it. Its diagnostics come back as for any document; hover, formatting and the other
// features need the document in the extension host, which VS Code does not give.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';

/** The largest document VS Code synchronises with extensions (its `_MODEL_SYNC_LIMIT`). */
const SYNC_LIMIT_BYTES = 50 * 1024 * 1024;

const OPEN_METHOD = 'pgn/openFile';
const CLOSE_METHOD = 'pgn/closeFile';

/** A save may change a file in several steps: it is read again once they are over. */
const REREAD_DELAY_MS = 300;

/** A large file a tab shows, and the watcher of its folder. */
interface Shown {
  uri: vscode.Uri;
  watcher: vscode.FileSystemWatcher;
  timer?: ReturnType<typeof setTimeout>;
}

export class LargeFiles implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private readonly shown = new Map<string, Shown>();
  private readonly listeners: vscode.Disposable[];

  /** `onShown` is called whenever a large file comes to be shown; `log` takes errors. */
  constructor(
    private readonly onShown: () => void,
    private readonly log: (line: string) => void,
  ) {
    this.listeners = [
      vscode.window.tabGroups.onDidChangeTabs(() => this.refresh()),
      vscode.workspace.onDidOpenTextDocument(() => this.refresh()),
    ];
  }

  /** Send to `client`, a started one, from now on: first the large files shown. */
  attach(client: LanguageClient): void {
    this.client = client;
    for (const shown of this.shown.values()) {
      this.send(OPEN_METHOD, shown.uri);
    }
    this.refresh();
  }

  /** Send nothing until the next `attach` (the client is stopping). */
  detach(): void {
    this.client = undefined;
  }

  dispose(): void {
    this.detach();
    for (const shown of this.shown.values()) {
      this.unwatch(shown);
    }
    this.shown.clear();
    for (const listener of this.listeners) {
      listener.dispose();
    }
  }

  /** Open the large files newly shown, close those no longer shown. */
  refresh(): void {
    const now = new Map(tooLargeToSync().map((uri) => [uri.toString(), uri]));
    for (const [key, shown] of this.shown) {
      if (!now.has(key)) {
        this.shown.delete(key);
        this.unwatch(shown);
        this.send(CLOSE_METHOD, shown.uri);
      }
    }
    for (const [key, uri] of now) {
      if (!this.shown.has(key)) {
        this.shown.set(key, this.watch(uri));
        this.send(OPEN_METHOD, uri);
        this.onShown();
      }
    }
  }

  private watch(uri: vscode.Uri): Shown {
    // The folder's files, not a pattern of the file's name, which could hold glob characters.
    const folder = vscode.Uri.file(path.dirname(uri.fsPath));
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '*'));
    const shown: Shown = { uri, watcher };
    const changed = (changedUri: vscode.Uri) => {
      if (changedUri.toString() !== uri.toString()) {
        return;
      }
      clearTimeout(shown.timer);
      shown.timer = setTimeout(() => {
        // Still shown and still too large (not deleted, say): read it again.
        this.refresh();
        if (this.shown.get(uri.toString()) === shown) {
          this.send(OPEN_METHOD, uri);
        }
      }, REREAD_DELAY_MS);
    };
    watcher.onDidChange(changed);
    watcher.onDidCreate(changed);
    watcher.onDidDelete(changed);
    return shown;
  }

  private unwatch(shown: Shown): void {
    clearTimeout(shown.timer);
    shown.watcher.dispose();
  }

  private send(method: string, uri: vscode.Uri): void {
    this.client
      ?.sendNotification(method, { textDocument: { uri: uri.toString() } })
      .catch((err: unknown) => this.log(`${method} ${uri.fsPath}: ${String(err)}`));
  }
}

/** The PGN files on disk that tabs show and VS Code does not synchronise, being too large. */
function tooLargeToSync(): vscode.Uri[] {
  const synced = new Set(vscode.workspace.textDocuments.map((document) => document.uri.toString()));
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .flatMap((tab) => (tab.input instanceof vscode.TabInputText ? [tab.input.uri] : []))
    .filter(
      (uri) =>
        uri.scheme === 'file' &&
        /\.pgn$/i.test(uri.path) &&
        !synced.has(uri.toString()) &&
        sizeOf(uri.fsPath) > SYNC_LIMIT_BYTES,
    );
}

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
