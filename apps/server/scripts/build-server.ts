// `npm run build -w @vers/server`: the server as one JavaScript file, dist/main.js, which `npm start` runs with
// plain node: no TypeScript compiled at every start, and the npm packages read from one file instead of hundreds of
// CommonJS modules resolved and loaded one by one. Packages that load files from beside their own (WebAssembly,
// native addons, static assets, their package.json) stay imports of node_modules, and so does React, which must be
// the one copy that @react-pdf/renderer uses. The PDF code is a chunk of its own, imported with the first PDF
// document (src/documents/generate.ts). src/paths.ts finds the server's files from the bundle as from the source:
// both lie one folder below apps/server/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { SERVER_DIST, SERVER_ROOT } from '../src/paths.ts';

const EXTERNAL_PACKAGES = new Set([
  '@electric-sql/pglite', // its .wasm and .data files
  '@node-rs/argon2', // a native addon
  'pg-native', // pg's optional native binding, required only when asked for
  'xmllint-wasm', // its .wasm file
  '@react-pdf/renderer', // yoga's wasm and its own font files; loaded with the first PDF
  'react', // one copy, the one @react-pdf/renderer uses
  'dejavu-fonts-ttf', // font files (resolved, not imported)
  '@fastify/swagger', // reads its package.json
  '@fastify/swagger-ui', // serves the static files beside it
]);

/** The package a bare import names: `drizzle-orm/pglite` → `drizzle-orm`, `@fastify/static` → itself. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** The commit the bundle is built from, which it reports as its version (src/main.ts); null outside a checkout. */
function headCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

const started = performance.now();
mkdirSync(SERVER_DIST, { recursive: true });
// Chunks of an earlier build have other names: remove them; keep the PGlite template.
for (const file of readdirSync(SERVER_DIST, { withFileTypes: true })) {
  if (file.isFile() && /\.js(\.map)?$/.test(file.name)) rmSync(path.join(SERVER_DIST, file.name));
}

const result = await build({
  absWorkingDir: SERVER_ROOT,
  entryPoints: { main: 'src/main.ts' },
  outdir: SERVER_DIST,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  jsx: 'automatic',
  // Half the bytes for V8 to parse at every start (~0.1 s of CPU). Names are kept (no minifyIdentifiers): libraries
  // read functions' and classes' names, and stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  // Stack traces can be mapped to the source (node --enable-source-maps dist/main.js).
  sourcemap: 'linked',
  sourcesContent: false,
  metafile: true,
  logLevel: 'warning',
  define: { __VERS_BUILT_FROM__: JSON.stringify(headCommit()) },
  // The CommonJS packages inside an ES module still call require (for node: modules and the external packages).
  banner: {
    js: "import { createRequire as __versRequire } from 'node:module'; const require = __versRequire(import.meta.url);",
  },
  plugins: [
    {
      name: 'external-packages',
      setup(esbuild) {
        esbuild.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('node:') || EXTERNAL_PACKAGES.has(packageOf(args.path))
            ? { path: args.path, external: true }
            : undefined,
        );
      },
    },
  ],
});

const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith('.js'));
const kilobytes = Math.round(outputs.reduce((sum, [, output]) => sum + output.bytes, 0) / 1024);
console.log(
  `server bundle: ${path.relative(process.cwd(), path.join(SERVER_DIST, 'main.js'))} and ${outputs.length - 1} ` +
    `chunk(s), ${kilobytes} KB, in ${Math.round(performance.now() - started)} ms`,
);
