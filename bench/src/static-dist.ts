// A plain static server for a built web app, as the product serves it (each file of the build, any other path
// the app's index.html), without the API: enough to load the login screen, in milliseconds instead of the
// product's seconds-long start with database and demo data.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

export interface StaticDist {
  url: string;
  close(): Promise<void>;
}

export async function serveDist(distDir: string): Promise<StaticDist> {
  const root = path.resolve(distDir);
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no API here"}');
      return;
    }
    const file = path.join(root, pathname);
    const inside = file.startsWith(root + path.sep) && path.basename(file) !== '';
    (inside ? readFile(file) : Promise.reject(new Error('not a file')))
      .then((body) => ({ body, type: CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream' }))
      .catch(async () => ({ body: await readFile(path.join(root, 'index.html')), type: CONTENT_TYPES['.html']! }))
      .then(({ body, type }) => response.writeHead(200, { 'content-type': type }).end(body))
      .catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
