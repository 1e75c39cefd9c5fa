// Unit tests of the settings sent to the server (run with `npm test`, no VS Code needed).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { Configuration, serverSettings } from '../settings';

interface Property {
  default: unknown;
}

/** The contributed settings that the server reads: `pgn.format.*` and `pgn.diagnostics.*`. */
function serverProperties(): Map<string, Property> {
  const manifest = path.join(__dirname, '..', '..', 'package.json');
  const properties: Record<string, Property> = JSON.parse(fs.readFileSync(manifest, 'utf8'))
    .contributes.configuration.properties;
  const keys = Object.keys(properties).filter((key) => /^pgn\.(format|diagnostics)\./.test(key));
  return new Map(keys.map((key) => [key.slice('pgn.'.length), properties[key]]));
}

/** `{ format: { lineWidth: value(...) }, ... }` for every contributed server setting. */
function nested(value: (key: string, property: Property) => unknown): Record<string, Record<string, unknown>> {
  const result: Record<string, Record<string, unknown>> = {};
  for (const [key, property] of serverProperties()) {
    const [group, name] = key.split('.');
    result[group] = { ...result[group], [name]: value(key, property) };
  }
  return result;
}

test('every server setting the extension contributes is sent, and nothing else', () => {
  const marked: Configuration = {
    get: <T>(key: string): T => `set: ${key}` as unknown as T,
  };
  assert.deepEqual(serverSettings(marked), nested((key) => `set: ${key}`));
});

test('the defaults sent are the contributed defaults', () => {
  const unset: Configuration = { get: <T>(_key: string, defaultValue: T): T => defaultValue };
  assert.deepEqual(serverSettings(unset), nested((_key, property) => property.default));
});
