// The page the server hands out asks for the app's files at once (vite.config.ts, preloadStartChunk): main.tsx
// imports src/app/start.tsx only after its own task, and without these links the browser would discover the app's
// chunk and its imports one round trip later. Nothing else notices their loss: the app still works, only slower.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { baseUrl } from '../support/browser.ts';

const dist = fileURLToPath(new URL('../../apps/web/dist', import.meta.url));

type Manifest = Record<string, { file: string; imports?: string[] }>;

/** The files of a manifest entry and of everything it imports statically. */
function filesOf(manifest: Manifest, key: string, files = new Set<string>()): Set<string> {
  const entry = manifest[key];
  if (!entry || files.has(entry.file)) return files;
  files.add(entry.file);
  for (const imported of entry.imports ?? []) filesOf(manifest, imported, files);
  return files;
}

describe('the first page load', () => {
  it("preloads the app's chunk and every file it imports", async () => {
    const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
    const files = filesOf(manifest, 'src/app/start.tsx');
    // The app's chunk, React's and MUI's at least: an empty set would make the check below pass for nothing.
    expect(files.size).toBeGreaterThan(2);

    const response = await fetch(new URL('/login', baseUrl()));
    expect(response.status).toBe(200);
    const html = await response.text();
    const preloaded = new Set(
      [...html.matchAll(/<link rel="modulepreload"[^>]*href="\/([^"]+)"/g)].map((match) => match[1]),
    );
    const missing = [...files].filter((file) => !preloaded.has(file));
    expect(missing).toEqual([]);
  });
});
