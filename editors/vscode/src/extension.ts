// VS Code client for the pgn-lsp language server: finds the server binary,
// starts it over stdio, forwards the `pgn.*` settings, has the server read the
// PGN files too large for VS Code to hand over (largeFiles.ts), and provides the
// "PGN: Restart Server" and "PGN: Show Board" commands.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';
import { registerBoard } from './board';
import { LargeFiles } from './largeFiles';
import { serverSettings } from './settings';

const SERVER_NAME = 'pgn-lsp';
const OUTPUT_NAME = 'PGN Language Server';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel | undefined;
let largeFiles: LargeFiles | undefined;
/** Whether the server is wanted: a PGN document or a PGN file too large to sync was shown. */
let wanted = false;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  largeFiles = new LargeFiles(
    () => void want(context),
    (line) => output?.appendLine(line),
  );
  context.subscriptions.push(largeFiles);

  context.subscriptions.push(
    vscode.commands.registerCommand('pgn.restartServer', async () => {
      wanted = true;
      await stopClient();
      await startClient(context);
    }),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      // A new binary needs a new process; other settings are sent to the
      // running server through workspace/didChangeConfiguration.
      if (wanted && event.affectsConfiguration('pgn.server.path')) {
        await stopClient();
        await startClient(context);
      }
    }),
    vscode.workspace.onDidOpenTextDocument((document) => {
      if (document.languageId === 'pgn') {
        void want(context);
      }
    }),
  );

  registerBoard(context, () => client);

  // Activated by a PGN document, or once VS Code has started (a file too large to sync
  // activates nothing): the server starts with the first PGN document or large file shown.
  if (vscode.workspace.textDocuments.some((document) => document.languageId === 'pgn')) {
    await want(context);
  }
  largeFiles.refresh();
}

async function want(context: vscode.ExtensionContext): Promise<void> {
  if (!wanted) {
    wanted = true;
    await startClient(context);
  }
}

export async function deactivate(): Promise<void> {
  await stopClient();
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  // Made with the first server, not on activation: a window that shows no PGN lists no channel.
  if (!output) {
    output = vscode.window.createOutputChannel(OUTPUT_NAME);
    context.subscriptions.push(output);
  }
  const found = findServer(context);
  if ('error' in found) {
    output?.appendLine(found.error);
    const choice = await vscode.window.showErrorMessage(found.error, 'Open Settings');
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'pgn.server.path');
    }
    return;
  }
  output?.appendLine(`Starting ${found.path}`);

  // TransportKind.stdio makes the client append `--stdio` to the command.
  const serverOptions: ServerOptions = {
    command: found.path,
    transport: TransportKind.stdio,
  };
  const config = vscode.workspace.getConfiguration('pgn');
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'pgn' },
      { scheme: 'untitled', language: 'pgn' },
    ],
    initializationOptions: serverSettings(config),
    // The whole `pgn` section again as soon as the server is up and after every change
    // (workspace/didChangeConfiguration); the server reads it from its `pgn` key.
    synchronize: { configurationSection: 'pgn' },
    outputChannel: output,
  };

  // The id 'pgn' makes the client honour the `pgn.trace.server` setting.
  client = new LanguageClient('pgn', OUTPUT_NAME, serverOptions, clientOptions);
  try {
    await client.start();
    largeFiles?.attach(client);
  } catch (err) {
    const message = `Failed to start ${found.path}: ${err instanceof Error ? err.message : String(err)}`;
    output?.appendLine(message);
    void vscode.window.showErrorMessage(`PGN: ${message}`);
  }
}

async function stopClient(): Promise<void> {
  const running = client;
  client = undefined;
  largeFiles?.detach();
  if (running) {
    try {
      await running.stop();
    } catch (err) {
      output?.appendLine(`Error while stopping the server: ${String(err)}`);
    }
  }
}

type Found = { path: string } | { error: string };

/** `pgn.server.path`, else the binary bundled in `server/`, else `pgn-lsp` on PATH. */
function findServer(context: vscode.ExtensionContext): Found {
  const exe = process.platform === 'win32' ? `${SERVER_NAME}.exe` : SERVER_NAME;

  const configured = vscode.workspace.getConfiguration('pgn').get<string>('server.path', '').trim();
  if (configured) {
    const resolved = resolveUserPath(configured);
    if (isExecutableFile(resolved)) {
      return { path: resolved };
    }
    return {
      error:
        `PGN: the "pgn.server.path" setting points to ${resolved}, which is not an executable file. ` +
        `Fix the setting, or clear it to use the bundled server or ${SERVER_NAME} from PATH.`,
    };
  }

  const bundled = context.asAbsolutePath(path.join('server', exe));
  if (fs.existsSync(bundled)) {
    ensureExecutable(bundled);
    if (isExecutableFile(bundled)) {
      return { path: bundled };
    }
  }

  const onPath = searchPath(exe);
  if (onPath) {
    return { path: onPath };
  }

  return {
    error:
      `PGN: the ${SERVER_NAME} language server was not found (no "pgn.server.path" setting, ` +
      `no bundled server, and no ${exe} on PATH). Install it with "cargo install --path ." ` +
      `from a checkout of the pgn-lsp repository, or set "pgn.server.path" to the binary.`,
  };
}

/** Expands `~` and resolves relative paths against the first workspace folder. */
function resolveUserPath(p: string): string {
  let result = p;
  if (result === '~' || result.startsWith('~/') || result.startsWith('~\\')) {
    result = path.join(os.homedir(), result.slice(1));
  }
  if (!path.isAbsolute(result)) {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    result = path.resolve(folder ?? process.cwd(), result);
  }
  return result;
}

function searchPath(exe: string): string | undefined {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter((d) => d.length > 0);
  for (const dir of dirs) {
    const candidate = path.join(dir, exe);
    if (isExecutableFile(candidate)) {
      return candidate;
    }
  }
  return undefined;
}

function isExecutableFile(p: string): boolean {
  try {
    if (!fs.statSync(p).isFile()) {
      return false;
    }
    if (process.platform !== 'win32') {
      fs.accessSync(p, fs.constants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}

/** Some unpackers drop the executable bit of the bundled binary: restore it. */
function ensureExecutable(p: string): void {
  if (process.platform === 'win32') {
    return;
  }
  try {
    fs.accessSync(p, fs.constants.X_OK);
  } catch {
    try {
      fs.chmodSync(p, 0o755);
    } catch (err) {
      output?.appendLine(`Could not make ${p} executable: ${String(err)}`);
    }
  }
}
