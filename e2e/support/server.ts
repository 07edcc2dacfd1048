import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServerProcess } from '../../apps/server/src/test/server.ts';

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
}

/** The real product as `npm start` runs it: one server process with the built web app on embedded PGlite. */
export async function startProduct(
  env: Record<string, string> = {},
  options: ProductOptions = {},
): Promise<RunningProduct> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'vers-e2e-'));
  const server = await startServerProcess(
    { VERS_DATA_DIR: dataDir, VERS_DEMO_PASSWORD: E2E_PASSWORD, ...env },
    options.port,
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
