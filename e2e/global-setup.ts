import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startProduct } from './support/server.ts';

export default async function setup(project: TestProject) {
  // The server serves VERS_WEB_DIST when set (a build of one's own), else apps/web/dist.
  const webDist = process.env.VERS_WEB_DIST ?? fileURLToPath(new URL('../apps/web/dist', import.meta.url));
  if (!existsSync(path.join(webDist, 'index.html'))) {
    throw new Error(`${webDist} holds no build: run \`npm run build\` first (npm run test:e2e does)`);
  }
  const product = await startProduct();
  project.provide('baseUrl', product.url);
  return () => product.stop();
}
