import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SOURCE_ENTRY, startServerProcess } from '../../apps/server/src/test/server.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/** What `npm start` runs: the server bundle of `npm run build` (apps/server/scripts/build-server.ts). */
const BUNDLE = path.join(repoRoot, 'apps/server/dist/main.js');
/** The TypeScript the bundle is made of. */
const BUNDLED_SOURCES = ['apps/server/src', 'packages/domain/src'].map((folder) => path.join(repoRoot, folder));

/** The newest modification time of a file below `folder`, in ms. */
function newestIn(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    // A test file is not part of the bundle.
    if (entry.isFile() && !/\.test\.tsx?$/.test(entry.name))
      newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

export type ServerEntry = 'bundle' | 'source';

/**
 * How the product is started: as `npm start` starts it, from the build's bundle, when there is one at least as new
 * as the server's and the domain's source (`npm test` builds before the e2e suite); else from the source through
 * tsx, with a note, so that a test run right after an edit tests the edit.
 */
function chooseEntry(): { kind: ServerEntry; args: readonly string[] } {
  const built = existsSync(BUNDLE) ? statSync(BUNDLE).mtimeMs : 0;
  if (built > 0 && BUNDLED_SOURCES.every((folder) => newestIn(folder) <= built)) {
    return { kind: 'bundle', args: [BUNDLE] };
  }
  console.warn(
    `${path.relative(repoRoot, BUNDLE)} is ${built ? 'older than the source' : 'not built'}: the server runs from ` +
      'its TypeScript source (`npm run build` makes the bundle that `npm start` runs)',
  );
  return { kind: 'source', args: SOURCE_ENTRY };
}

let chosen: { kind: ServerEntry; args: readonly string[] } | undefined;
export const serverEntry = () => (chosen ??= chooseEntry());

export const E2E_PASSWORD = 'E2e-Demo-Pass1';

export interface RunningProduct {
  url: string;
  /** The server process, for benchmarks that read its CPU and memory. */
  pid: number;
  dataDir: string;
  stop(): Promise<void>;
}

export interface ProductOptions {
  /** Start on this data folder (it is kept on stop), e.g. once more after a stop. */
  dataDir?: string;
  /** Listen on this port, e.g. the one the product had before a restart, so browsers keep their origin. */
  port?: number;
  /** How often to ask whether the server answers yet (startServerProcess's default when absent). */
  pollMs?: number;
}

/**
 * The real product as `npm start` runs it: one server process (the build's bundle, see serverEntry) with the built
 * web app on embedded PGlite.
 */
export async function startProduct(
  env: Record<string, string> = {},
  options: ProductOptions = {},
): Promise<RunningProduct> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'vers-e2e-'));
  const server = await startServerProcess(
    // The tests make the orders they need: the demo wagon orders (VERS_DEMO_ORDERS) only where a test asks for them.
    { VERS_DATA_DIR: dataDir, VERS_DEMO_PASSWORD: E2E_PASSWORD, VERS_DEMO_ORDERS: 'false', ...env },
    options.port,
    { entry: serverEntry().args, ...(options.pollMs ? { pollMs: options.pollMs } : {}) },
  ).catch((error: unknown) => {
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  const { child } = server;
  return {
    url: server.url,
    pid: child.pid ?? -1,
    dataDir,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
