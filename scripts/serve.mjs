// A tiny static file server for the built site, bound to loopback only. Sends .wasm as
// application/wasm (so the browser compiles it while it streams) and never caches, so a
// rebuilt site shows at once. Every HTML page goes out under a strict Content-Security-Policy
// (contentSecurityPolicy below): no inline script or style, no eval; the WebAssembly module is
// compiled under 'wasm-unsafe-eval' alone; any site may frame the pages (they are made to be
// embedded). Used by scripts/serve.sh and by the browser tests (tests/web/csp.test.mjs checks
// that every page runs under it with no violation).
//   node scripts/serve.mjs [root=build/site] [port=8080]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

// The policy a host of the site can send as it is (docs/embedding.md).
export const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
  "style-src 'self'; img-src 'self' data: blob:; frame-ancestors *";

// policy: the Content-Security-Policy of HTML responses; the tests serve their stand-ins for
// a tutorial's own page (another origin, a host's choice of policy) with another or none (null).
export function startServer({ root, port = 8080, host = '127.0.0.1', policy = contentSecurityPolicy }) {
  const base = path.resolve(root);
  const server = http.createServer((req, res) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      res.writeHead(400).end('bad request');
      return;
    }
    if (pathname.endsWith('/')) pathname += 'index.html';
    const file = path.resolve(base, '.' + pathname);
    if (file !== base && !file.startsWith(base + path.sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    fs.readFile(file, (err, data) => {
      if (err) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
        return;
      }
      const type = types[path.extname(file).toLowerCase()] || 'application/octet-stream';
      const headers = { 'Content-Type': type, 'Cache-Control': 'no-store' };
      if (policy && type.startsWith('text/html')) headers['Content-Security-Policy'] = policy;
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : data);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      resolve({ server, url: `http://${host}:${actual}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] || 'build/site';
  const port = Number(process.argv[3] || 8080);
  const { url } = await startServer({ root, port });
  console.log(`Stepwise playground: open ${url}`);
}
