import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { startProduct } from './support/server.ts';

export default async function setup(project: TestProject) {
  if (!existsSync(new URL('../apps/web/dist/index.html', import.meta.url))) {
    throw new Error('apps/web/dist is missing: run `npm run build` first (npm run test:e2e does)');
  }
  const product = await startProduct();
  project.provide('baseUrl', product.url);
  return () => product.stop();
}
