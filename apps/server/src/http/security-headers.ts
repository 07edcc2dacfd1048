import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';

/**
 * The Content-Security-Policy of every answer, the web app's included. The app loads only its own scripts
 * (Vite emits no inline script), talks only to its own origin, and is never framed. Styles need
 * 'unsafe-inline': MUI's emotion writes <style> elements and style attributes at run time, and a nonce
 * cannot be used because the service worker serves one cached index.html for every visit. Pictures are
 * shown from data: URLs (thumbnails made on the device) and blob: URLs (camera, downloads).
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  // 'wasm-unsafe-eval': the camera's number scanner compiles its own WebAssembly (OCR and barcode reader, served from
  // 'self'); it allows compiling WebAssembly only, not eval() or new Function() of JavaScript.
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'media-src': ["'self'", 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'"],
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
} as const;

/**
 * Security headers on every answer (helmet): the CSP above, no framing (X-Frame-Options and frame-ancestors),
 * no MIME sniffing, no referrer, same-origin resource and opener policies. HSTS only on an answer to a request
 * that came over HTTPS (directly, or through a trusted proxy that says so in X-Forwarded-Proto), without
 * includeSubDomains (other hosts of a workshop's domain are not ours to pin): over plain HTTP a browser ignores it,
 * and a proxy's cache must not hand it to an HTTPS visitor of another host. No
 * upgrade-insecure-requests: a workshop may serve VERS over plain HTTP on its own network, where it would
 * turn every call of the app into a failing HTTPS call.
 */
export function registerSecurityHeaders(app: FastifyInstance) {
  // helmet itself, built once: its Fastify plugin builds the whole middleware again for every request (~19 µs of CPU
  // against ~1 µs to apply a built one, measured on this machine), for route options and nonces VERS does not use.
  const securityHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    frameguard: { action: 'deny' },
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'no-referrer' },
  });
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error) => done(error instanceof Error ? error : undefined)),
  );
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    // Answers of the API hold one workshop's data and change with every write: no cache keeps them (a shared
    // tablet's browser, a proxy). The web app's files keep their own caching.
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
}

const HSTS = `max-age=${180 * 24 * 3600}`;
