import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/** The commit this build comes from: VERS_GIT_SHA when set, else the checkout's HEAD. */
function gitSha(): string {
  if (process.env.VERS_GIT_SHA) return process.env.VERS_GIT_SHA;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

const commit = gitSha();

/** Writes the build's version as /COMMIT, which running apps poll to notice a newer front end. */
function commitFile(): Plugin {
  return {
    name: 'vers-commit-file',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'COMMIT', source: `${commit}\n` });
    },
  };
}

/**
 * The files the camera's number scanner (src/features/scan/engine.ts) loads at run time, outside the module graph:
 * tesseract.js's worker script, its core (LSTM only, WebAssembly SIMD: the JS loader and the .wasm beside it, which it
 * finds by name), the English LSTM model (`best_int`, gzip) and ZXing's reader .wasm. Copied from node_modules into
 * the build under one folder named by their contents' hash (so that the server sends them as immutable, like every
 * file under /assets/), precached by the service worker (scanning works offline), and fetched by a page only when
 * the scanner is created. Their URLs reach the engine as __VERS_SCAN_ASSETS__.
 */
const require = createRequire(import.meta.url);
const SCAN_SOURCES = {
  worker: require.resolve('tesseract.js/dist/worker.min.js'),
  core: require.resolve('tesseract.js-core/tesseract-core-simd-lstm.js'),
  coreWasm: require.resolve('tesseract.js-core/tesseract-core-simd-lstm.wasm'),
  lang: require.resolve('@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz'),
  zxingWasm: require.resolve('zxing-wasm/reader/zxing_reader.wasm'),
} as const;
const scanFiles = Object.values(SCAN_SOURCES).map((source) => ({
  name: path.basename(source),
  bytes: readFileSync(source),
}));
const SCAN_FOLDER = `assets/scan-${createHash('sha256')
  .update(Buffer.concat(scanFiles.map((file) => file.bytes)))
  .digest('hex')
  .slice(0, 12)}`;
const scanUrl = (source: string) => `/${SCAN_FOLDER}/${path.basename(source)}`;
const SCAN_ASSETS = {
  workerPath: scanUrl(SCAN_SOURCES.worker),
  corePath: scanUrl(SCAN_SOURCES.core),
  // tesseract.js asks for `${langPath}/eng.traineddata.gz`.
  langPath: `/${SCAN_FOLDER}`,
  zxingWasm: scanUrl(SCAN_SOURCES.zxingWasm),
};

function scanAssets(): Plugin {
  return {
    name: 'vers-scan-assets',
    generateBundle() {
      for (const file of scanFiles)
        this.emitFile({ type: 'asset', fileName: `${SCAN_FOLDER}/${file.name}`, source: file.bytes });
    },
    // `vite` (dev): the same URLs, from node_modules.
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const file = scanFiles.find((candidate) => request.url === `/${SCAN_FOLDER}/${candidate.name}`);
        if (!file) return next();
        response.setHeader(
          'Content-Type',
          file.name.endsWith('.wasm')
            ? 'application/wasm'
            : file.name.endsWith('.js')
              ? 'text/javascript'
              : 'application/gzip',
        );
        response.end(file.bytes);
      });
    },
  };
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
/** Text files worth compressing: below ~1 KB the headers outweigh the saving. */
const COMPRESSIBLE = /\.(js|css|html|svg|json|webmanifest|wasm)$/;
const MIN_COMPRESSED_BYTES = 1024;

/**
 * Writes a Brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside every text file of the build, which the
 * server sends to browsers that accept them (@fastify/static `preCompressed`). Without them every script went over
 * the wire uncompressed: 820 KB for the login screen instead of ~250 KB gzip (Lighthouse: "Enable text compression").
 * Compressed once at build time, at the best ratio, instead of per request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'vers-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const names = Object.keys(bundle).filter((name) => COMPRESSIBLE.test(name) && !name.startsWith('.vite/'));
      await Promise.all(
        names.map(async (name) => {
          // The bytes as written, so that the copies are exactly the file the server would send.
          const target = path.join(outDir, name);
          const bytes = await readFile(target);
          if (bytes.length < MIN_COMPRESSED_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(bytes, {
              params: {
                [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
                [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            }),
            gzipped(bytes, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${target}.br`, br), writeFile(`${target}.gz`, gz)]);
        }),
      );
    },
  };
}

const LAZY_MUI_NUMBER_FORMAT = path.resolve(import.meta.dirname, 'src/app/mui-format-number.ts');

/**
 * MUI's number formatter factory, made lazy for MUI's modules (src/app/mui-format-number.ts says why): its
 * TablePagination made an `Intl.NumberFormat` as the order list's chunk was evaluated.
 */
function lazyMuiNumberFormat(): Plugin {
  let replaced = false;
  return {
    name: 'vers-lazy-mui-number-format',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source.endsWith('/locale/utils/buildFormatNumber.mjs') && importer?.includes('/@mui/material/')) {
        replaced = true;
        return LAZY_MUI_NUMBER_FORMAT;
      }
      return null;
    },
    // A newer MUI that moves or renames the module would otherwise end the replacement without a word.
    buildEnd(error) {
      if (!error && !replaced) this.error('lazyMuiNumberFormat: no MUI module imported locale/utils/buildFormatNumber');
    },
  };
}

/**
 * index.html asks for the app's start chunk (src/app/start.tsx) and the files it imports with the entry's own, as
 * module preloads: main.tsx imports it dynamically, so that its modules are evaluated in a task of their own, and
 * Vite would otherwise add a link for each of those ~50 files from a script as that import runs (~0.4 ms each on a
 * phone's main thread), after the entry had loaded.
 */
function preloadStartChunk(): Plugin {
  return {
    name: 'vers-preload-start-chunk',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle;
        if (!bundle) return html;
        const chunks = new Map(
          Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [[output.fileName, output]] : [])),
        );
        const start = [...chunks.values()].find((chunk) => chunk.facadeModuleId?.endsWith('/src/app/start.tsx'));
        if (!start) throw new Error('preloadStartChunk: no chunk for src/app/start.tsx');
        const files = new Set<string>();
        const add = (fileName: string) => {
          if (files.has(fileName)) return;
          files.add(fileName);
          for (const imported of chunks.get(fileName)?.imports ?? []) add(imported);
        };
        add(start.fileName);
        return [...files]
          .filter((fileName) => !html.includes(`/${fileName}"`))
          .map((fileName) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}` },
            injectTo: 'head' as const,
          }));
      },
    },
  };
}

/** The build's second entry (src/i18n/early.ts): starts the language's catalogue while the app still downloads. */
const EARLY_ENTRY = 'early';
const SCAN_ENTRY = 'scan-engine';

/**
 * Adds the `early` entry to index.html as a module script of its own, before the app's. Vite merges all module
 * scripts of a page into one entry, so its script could not sit in index.html: it would wait for the app's graph.
 * On its own it runs as soon as its few bytes arrive and asks for the catalogue chunk, which then loads beside the
 * app's scripts instead of one round trip after them. A module script from the same origin: the CSP allows it.
 */
function earlyCatalogue(): Plugin {
  return {
    name: 'vers-early-catalogue',
    apply: 'build',
    config: () => ({
      build: {
        rollupOptions: {
          // The scanner's engine is an entry of its own, loaded by nothing at start: the camera dialog imports it,
          // and the benchmark loads it into a page of the built app (dist/.vite/manifest.json names its file).
          input: {
            index: 'index.html',
            [EARLY_ENTRY]: 'src/i18n/early.ts',
            [SCAN_ENTRY]: 'src/features/scan/engine.ts',
          },
        },
      },
    }),
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const chunk = Object.values(context.bundle ?? {}).find(
          (output) => output.type === 'chunk' && output.isEntry && output.name === EARLY_ENTRY,
        );
        if (!chunk || chunk.type !== 'chunk') throw new Error(`the ${EARLY_ENTRY} entry is missing from the build`);
        // Its static imports, all levels, so that none waits for the one before it.
        const imports = new Set<string>();
        const visit = (name: string) => {
          const output = context.bundle?.[name];
          if (output?.type !== 'chunk') return;
          for (const next of output.imports) {
            if (imports.has(next)) continue;
            imports.add(next);
            visit(next);
          }
        };
        visit(chunk.fileName);
        // First among the scripts, its few imports right after it: they are fetched before the app's chunks.
        const tags = [
          `<script type="module" crossorigin src="/${chunk.fileName}"></script>`,
          ...[...imports].map((name) => `<link rel="modulepreload" crossorigin href="/${name}">`),
        ];
        const at = html.indexOf('<script type="module"');
        if (at < 0) throw new Error('index.html has no module script');
        return `${html.slice(0, at)}${tags.join('\n    ')}\n    ${html.slice(at)}`;
      },
    },
  };
}

/**
 * The service worker: after one visit the app shell and every chunk (all languages, the field catalogue) come
 * from its cache, so the app starts without a network. API calls, /COMMIT and the online check pass through to
 * the network untouched. A new version waits until the user agrees to refresh (the prompt in AppEffects).
 */
const serviceWorker = VitePWA({
  registerType: 'prompt',
  injectRegister: false,
  manifest: {
    name: 'VERS',
    short_name: 'VERS',
    description: 'Maintenance orders for rail freight wagons and wheelsets',
    lang: 'de',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: '#005087',
    background_color: '#ffffff',
    icons: [
      { src: '/icons/vers-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icons/vers-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icons/vers-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    // The scanner's files (scanAssets) too: its .wasm files and the gzip model (not the .gz copies of the build).
    globPatterns: ['**/*.{js,css,html,svg,png,woff2}', 'assets/scan-*/*.{wasm,traineddata.gz}'],
    navigateFallback: '/index.html',
    navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/COMMIT$/],
    cleanupOutdatedCaches: true,
    // The editor's chunk with the field catalogue is large, and so is the scanner's core (2.9 MB); they must be
    // cached all the same.
    maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
  },
});

export default defineConfig({
  plugins: [
    react(),
    lazyMuiNumberFormat(),
    preloadStartChunk(),
    commitFile(),
    earlyCatalogue(),
    scanAssets(),
    serviceWorker,
    precompress(),
  ],
  define: { __VERS_COMMIT__: JSON.stringify(commit), __VERS_SCAN_ASSETS__: JSON.stringify(SCAN_ASSETS) },
  // The manifest (dist/.vite/manifest.json, not precached) maps each lazily loaded screen to its chunks, for the
  // per-route size budgets of `npm run check:budgets`.
  // Vite drops the exports of an app's entries; the scanner engine's entry keeps them: they are its interface
  // (createNumberScanner). The other entries export nothing.
  build: { chunkSizeWarningLimit: 1500, manifest: true, rolldownOptions: { preserveEntrySignatures: 'exports-only' } },
  server: { proxy: { '/api': 'http://localhost:8080', '/COMMIT': 'http://localhost:8080' } },
});
