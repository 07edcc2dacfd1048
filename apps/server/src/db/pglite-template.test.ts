import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyTemplateTo, identityGiven, latestMigrationTag } from './pglite-template.ts';

/** A stand-in for the build's template: a folder with PG_VERSION and a file, tagged with the newest migration. */
function fakeTemplate(root: string, tag = latestMigrationTag()): string {
  const template = path.join(root, 'template');
  mkdirSync(path.join(template, 'base'), { recursive: true });
  writeFileSync(path.join(template, 'PG_VERSION'), '17\n');
  writeFileSync(path.join(template, 'base', 'data'), 'rows');
  writeFileSync(`${template}.tag`, `${tag}\n`);
  return template;
}

describe('copyTemplateTo', () => {
  it('copies into a new folder, which needs an identity of its own until identityGiven, also after a stopped start', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'vers-template-'));
    const template = fakeTemplate(root);
    const dir = path.join(root, 'data', 'deep', 'pglite');
    expect(copyTemplateTo(dir, template)).toBe(true);
    expect(existsSync(path.join(dir, 'base', 'data'))).toBe(true);
    expect(readdirSync(path.join(root, 'data', 'deep'))).toEqual(['pglite']); // no partial copy left beside it
    // The start stopped before the new identity: the next start still gives one.
    expect(copyTemplateTo(dir, template)).toBe(true);
    identityGiven(dir);
    expect(copyTemplateTo(dir, template)).toBe(false);
  });

  it('leaves a folder alone without a fitting template: none, or one built from other migrations', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'vers-template-'));
    expect(copyTemplateTo(path.join(root, 'a'), path.join(root, 'missing'))).toBe(false);
    const stale = fakeTemplate(root, '0000_older');
    expect(copyTemplateTo(path.join(root, 'b'), stale)).toBe(false);
    expect(existsSync(path.join(root, 'b'))).toBe(false);
  });
});
