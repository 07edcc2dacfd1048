// Gzip sizes of the web app's JavaScript: what the login screen loads (measured in Chromium: every script the page
// fetched), what the signed-in frame and each route's screen add (from the Vite build manifest: the lazily loaded
// screen's chunk and its static imports, less what is loaded already), and all JavaScript of the build.
// Reads the build in VERS_WEB_DIST (default apps/web/dist).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Response } from 'playwright-core';
import { launchBrowser } from '../../e2e/support/browser.ts';
import { type Budgets, FRAME, LOGIN, type MeasuredSize, routeFigureName } from './budgets.ts';
import type { Section } from './figures.ts';

// The lazily loaded screens are listed where the app loads its first screen (the router takes them from there).
const SCREENS_SOURCE = new URL('../../apps/web/src/app/first-screen.ts', import.meta.url).pathname;
const DEFAULT_DIST = new URL('../../apps/web/dist', import.meta.url).pathname;

export const webDistDir = () => path.resolve(process.env.VERS_WEB_DIST ?? DEFAULT_DIST);

const gzipKb = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length / 1024;

/** The part of Vite's build manifest read here (dist/.vite/manifest.json, `build.manifest` in vite.config.ts). */
interface ManifestChunk {
  file: string;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface LazyScreens {
  /** Manifest key (source path) of the signed-in frame. */
  frame: string;
  /** Route name -> manifest key of its screen. */
  routes: Map<string, string>;
}

/**
 * The app's lazily loaded screens, read from the source that lists them (first-screen.ts):
 * `name: () => import('../features/...')` in PAGE_CHUNKS (or `name: lazy(() => import(...))`) and `const loadLayout = () => import('./Layout.tsx')` (or
 * `const Layout = lazy(() => import('./Layout.tsx')...)`). Fails when the source no longer has that shape, so
 * that a changed list cannot silently leave routes without a budget.
 */
export function lazyScreens(screensSource: string): LazyScreens {
  const routes = new Map<string, string>();
  for (const match of screensSource.matchAll(/^\s*(\w+): (?:lazy\()?\(\) => import\('\.\.\/([^']+)'\)/gm)) {
    routes.set(match[1]!, `src/${match[2]!}`);
  }
  const layout = /const (?:Layout = lazy\(|loadLayout = )\(\) => import\('\.\/([^']+)'\)/.exec(screensSource);
  if (routes.size === 0 || !layout) {
    throw new Error(
      'bench/src/bundle-size.ts found no lazily loaded screens (or no Layout) in apps/web/src/app/first-screen.ts: ' +
        'update lazyScreens() to it',
    );
  }
  return { frame: `src/app/${layout[1]!}`, routes };
}

/** The chunk of `key` and all it imports statically: what the browser fetches when it loads that module. */
function closure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`the build manifest has no chunk for ${key}: is the build older than the router?`);
  if (into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(manifest, imported, into);
  return into;
}

export interface ChunkSet {
  kb: number;
  /** Files below the dist folder ('assets/x.js'). */
  files: string[];
}

export interface BundleFigures {
  distDir: string;
  login: ChunkSet;
  frame: ChunkSet;
  routes: { route: string; chunks: ChunkSet }[];
  app: ChunkSet;
}

/** Every script the login screen of the app at `baseUrl` fetches, by path below the dist folder, KB gzip. */
export async function loginScripts(baseUrl: string): Promise<Map<string, number>> {
  const browser = await launchBrowser();
  const scripts = new Map<string, number>();
  try {
    const context = await browser.newContext({ baseURL: baseUrl });
    const page = await context.newPage();
    const bodies: Promise<void>[] = [];
    const onResponse = (response: Response) => {
      if (response.request().resourceType() !== 'script') return;
      const file = new URL(response.url()).pathname.replace(/^\//, '');
      bodies.push(response.body().then((body) => void scripts.set(file, gzipKb(body))));
    };
    page.on('response', onResponse);
    await page.goto('/login', { waitUntil: 'networkidle' });
    await page.getByTestId('login-submit').waitFor();
    // Stop listening before waiting for the bodies: a response that came in after the wait began had its body still
    // being read when the context closed, and failed with "Target page closed" (seen once in check:budgets).
    page.off('response', onResponse);
    await Promise.all(bodies);
    await context.close();
  } finally {
    await browser.close();
  }
  return scripts;
}

export async function measureBundles(baseUrl: string, distDir = webDistDir()): Promise<BundleFigures> {
  const fileKb = (file: string) => gzipKb(readFileSync(path.join(distDir, file)));
  const chunkSet = (files: Iterable<string>): ChunkSet => {
    const sorted = [...files].sort();
    return { kb: sorted.reduce((sum, file) => sum + fileKb(file), 0), files: sorted };
  };
  const manifest = JSON.parse(readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const screens = lazyScreens(readFileSync(SCREENS_SOURCE, 'utf8'));

  const loginKb = await loginScripts(baseUrl);
  const login: ChunkSet = {
    kb: [...loginKb.values()].reduce((sum, kb) => sum + kb, 0),
    files: [...loginKb.keys()].sort(),
  };
  const loaded = new Set(login.files);
  const frameFiles = [...closure(manifest, screens.frame)].filter((file) => !loaded.has(file));
  const frame = chunkSet(frameFiles);
  for (const file of frameFiles) loaded.add(file);
  const routes = [...screens.routes].map(([route, key]) => ({
    route,
    chunks: chunkSet([...closure(manifest, key)].filter((file) => !loaded.has(file))),
  }));
  const assets = readdirSync(path.join(distDir, 'assets')).filter((file) => file.endsWith('.js'));
  const app = chunkSet(assets.map((file) => `assets/${file}`));
  return { distDir, login, frame, routes, app };
}

/** The sizes that have budgets, named as bench/budgets.json names them. */
export function budgetedSizes(f: BundleFigures): MeasuredSize[] {
  return [
    { name: LOGIN, kb: f.login.kb },
    { name: FRAME, kb: f.frame.kb },
    ...f.routes.map(({ route, chunks }) => ({ name: routeFigureName(route), kb: chunks.kb })),
  ];
}

export function bundleSection(f: BundleFigures, budgets: Budgets | null): Section {
  const budgetOf = (name: string) => {
    if (!budgets) return undefined;
    const kb = name === LOGIN ? budgets.loginKb : name === FRAME ? budgets.signedInFrameKb : undefined;
    return kb ?? budgets.routesKb[name.replace(/^route /, '')];
  };
  const scripts = (set: ChunkSet) => `${set.files.length} script${set.files.length === 1 ? '' : 's'}`;
  const setOf = (name: string): ChunkSet =>
    name === LOGIN
      ? f.login
      : name === FRAME
        ? f.frame
        : f.routes.find((r) => routeFigureName(r.route) === name)!.chunks;
  return {
    id: 'bundles',
    title: 'web app JavaScript, KB gzip (level 9)',
    chart: true,
    figures: [
      ...budgetedSizes(f).map(({ name, kb }) => {
        const budgetKb = budgetOf(name);
        return {
          name,
          value: kb,
          unit: 'KB',
          digits: 1,
          ...(budgetKb === undefined ? {} : { aim: { text: `<= ${budgetKb} KB budget`, met: kb <= budgetKb } }),
          note: scripts(setOf(name)),
        };
      }),
      { name: 'whole app', value: f.app.kb, unit: 'KB', digits: 1, note: scripts(f.app) },
    ],
    notes: [
      'login screen: every script Chromium fetched for /login; signed-in frame: the Layout chunk and its imports ' +
        'beyond those; route: its screen chunk and static imports beyond both (budgets: bench/budgets.json, ' +
        'enforced by `npm run check:budgets` in `npm test`)',
    ],
  };
}
