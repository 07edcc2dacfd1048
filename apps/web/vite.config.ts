import { execFileSync } from 'node:child_process';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';

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

export default defineConfig({
  plugins: [react(), commitFile()],
  define: { __VERS_COMMIT__: JSON.stringify(commit) },
  build: { chunkSizeWarningLimit: 1500 },
  server: { proxy: { '/api': 'http://localhost:8080', '/COMMIT': 'http://localhost:8080' } },
});
