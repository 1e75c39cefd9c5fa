// The language server's settings from the extension's `pgn.*` configuration,
// as the server reads them (its README's "Settings"). They go as
// initializationOptions; VS Code then sends the whole `pgn` section again
// through workspace/didChangeConfiguration, as soon as the server is up and
// after every change.

/** The `pgn` section of the configuration (a `vscode.WorkspaceConfiguration`). */
export interface Configuration {
  get<T>(key: string, defaultValue: T): T;
}

/** The server's settings: `format` and `diagnostics`, with their defaults. */
export function serverSettings(config: Configuration): Record<string, Record<string, unknown>> {
  return {
    format: {
      lineWidth: config.get<number>('format.lineWidth', 80),
      reflowComments: config.get<boolean>('format.reflowComments', true),
      addMissingTags: config.get<boolean>('format.addMissingTags', true),
    },
    diagnostics: {
      limit: config.get<number>('diagnostics.limit', 1000),
      minSeverity: config.get<string>('diagnostics.minSeverity', 'hint'),
      ignore: config.get<string[]>('diagnostics.ignore', []),
    },
  };
}
