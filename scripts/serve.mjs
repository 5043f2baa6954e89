// A static file server for the site, bound to loopback by default, that behaves as a real static
// host should (docs/hosting.md lists the same rules for other servers):
// - a precompressed copy beside a file (x.js.br, x.js.gz) is sent when the request accepts its
//   encoding (br before gzip), with Content-Encoding and Vary: Accept-Encoding; nothing is
//   compressed on the fly;
// - caching: a file whose name carries a content hash (name-0123abcd.js: eight or more hex digits
//   before the extension) never changes under its name: one year, immutable; everything else
//   (the HTML entry points, sw.js, a development build's unhashed files) is revalidated at every
//   use (no-cache) against its ETag or Last-Modified, so a rebuilt site shows at once and an
//   unchanged file costs a 304;
// - Range requests (one range: 206, or 416 when it cannot be satisfied), HEAD, 404, 403 outside
//   the root, 405 for other methods; correct types (.wasm as application/wasm, so the browser
//   compiles the module while it streams);
// - every HTML page under a strict Content-Security-Policy (contentSecurityPolicy below): no
//   inline script or style, no eval; the WebAssembly module is compiled under 'wasm-unsafe-eval'
//   alone; any site may frame the pages (they are made to be embedded); nosniff and a referrer
//   policy on every response.
// Used by scripts/serve.sh and by the browser tests (tests/web/csp.test.mjs checks that every page
// runs under the policy with no violation; tests/web/serve.test.mjs checks the rules above).
//   node scripts/serve.mjs [root=build/site] [port=8080]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Each extension's Content-Type (scripts/build-dist.mjs writes the WebAssembly one into _headers too).
export const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.gz': 'application/gzip',
  '.br': 'application/octet-stream',
};

// The precompressed copies a host may hold beside a file, preferred first.
const encodings = [{ name: 'br', suffix: '.br' }, { name: 'gzip', suffix: '.gz' }];

// The policy a host of the site can send as it is (docs/embedding.md).
export const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
  "style-src 'self'; img-src 'self' data: blob:; frame-ancestors *";

// A name with a content hash: never changes, cached for a year.
export const hashedName = /[.-][0-9a-f]{8,}\.[a-z0-9]+$/i;
export const longCache = 'public, max-age=31536000, immutable';

// The encodings a request accepts (q=0 refuses one), as a set of names.
function accepted(header) {
  const names = new Set();
  for (const part of String(header || '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) names.add(name);
  }
  return names;
}

// One byte range of `size` bytes from a Range header: {start, end} (inclusive), 'unsatisfiable',
// or null to send the whole file (no header, another unit, several ranges, or a malformed one).
export function byteRange(header, size) {
  const m = /^bytes=(\d*)-(\d*)$/.exec(String(header || '').trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start, end;
  if (m[1] === '') {  // the last n bytes
    const n = Number(m[2]);
    if (n === 0) return 'unsatisfiable';
    start = Math.max(0, size - n);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return null;  // invalid: ignored, as RFC 9110 says
  }
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

// The redirect to a folder's slash names a path on this host, written from the resolved folder
// (inside the root), one encoded segment at a time: never the raw request, so `//other.host/..`
// cannot become a link to another host.
export function redirectPath(base, folder) {
  const segments = path.relative(base, folder).split(path.sep).filter(Boolean);
  return '/' + segments.map((s) => encodeURIComponent(s) + '/').join('');
}

const statOf = (file) => fs.promises.stat(file).then((s) => (s.isFile() ? s : null), () => null);

// The status of a request Node's parser refused (a 'clientError'): 408 when its headers did not
// arrive in time, 431 when they are over Node's limit (16 KiB with the request line), 400 for
// any other malformed request.
export function clientErrorStatus(err) {
  if (err?.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (err?.code === 'HPE_HEADER_OVERFLOW') return 431;
  return 400;
}

// policy: the Content-Security-Policy of HTML responses; the tests serve their stand-ins for
// a tutorial's own page (another origin, a host's choice of policy) with another or none (null).
// headersTimeoutMs: how long a client may take to send its request's headers before it is answered
// 408 (Node's default, a minute); Node checks it every checkMs, a quarter of it at most.
export function startServer({ root, port = 8080, host = '127.0.0.1', policy = contentSecurityPolicy, headersTimeoutMs = 60000 }) {
  const base = path.resolve(root);
  const checkMs = Math.min(30000, Math.max(10, Math.floor(headersTimeoutMs / 4)));
  const options = { headersTimeout: headersTimeoutMs, requestTimeout: Math.max(300000, headersTimeoutMs), connectionsCheckingInterval: checkMs };
  const server = http.createServer(options, (req, res) => {
    // No request may end the process: whatever a handler throws becomes a 500 (or, once the
    // headers are out, a closed connection), and the server keeps serving.
    handle(req, res).catch(() => {
      if (!res.headersSent) {
        try {
          res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
          res.end(req.method === 'HEAD' ? undefined : 'internal error');
          return;
        } catch { /* fall through */ }
      }
      res.destroy();
    });
  });
  // A request the parser refuses never reaches the handler: answer with its own status, as nginx
  // does (clientErrorStatus), and close.
  server.on('clientError', (err, socket) => {
    const status = clientErrorStatus(err);
    if (socket.writable) {
      socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    } else socket.destroy();
  });
  async function handle(req, res) {
    const common = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'strict-origin-when-cross-origin' };
    const fail = (status, text, more = {}) => {
      res.writeHead(status, { ...common, 'Content-Type': 'text/plain; charset=utf-8', ...more });
      res.end(req.method === 'HEAD' ? undefined : text);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return fail(405, 'method not allowed', { Allow: 'GET, HEAD' });
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      return fail(400, 'bad request');
    }
    // No file name of the site holds a control character; one in a request is refused whole.
    if (/[\x00-\x1f\x7f]/.test(pathname)) return fail(400, 'bad request');
    if (pathname.endsWith('/')) pathname += 'index.html';
    const file = path.resolve(base, '.' + pathname);
    if (file !== base && !file.startsWith(base + path.sep)) return fail(403, 'forbidden');
    const stat = await statOf(file);
    if (!stat) {
      const dir = await fs.promises.stat(file).catch(() => null);
      if (dir && dir.isDirectory()) return fail(301, 'moved', { Location: redirectPath(base, file) });
      return fail(404, 'not found');
    }
    const type = types[path.extname(file).toLowerCase()] || 'application/octet-stream';
    const compressible = /^(text\/|application\/(wasm|json|manifest\+json)|image\/svg)/.test(type);
    // The representation sent: a precompressed copy the request accepts, or the file itself.
    let sent = { file, stat, encoding: null };
    if (compressible) {
      const ok = accepted(req.headers['accept-encoding']);
      for (const e of encodings) {
        if (!ok.has(e.name)) continue;
        const s = await statOf(file + e.suffix);
        if (s) { sent = { file: file + e.suffix, stat: s, encoding: e.name }; break; }
      }
    }
    const etag = `"${sent.stat.size.toString(16)}-${Math.floor(sent.stat.mtimeMs).toString(16)}${sent.encoding ? `-${sent.encoding}` : ''}"`;
    const headers = {
      ...common,
      'Content-Type': type,
      'Cache-Control': hashedName.test(path.basename(file)) ? longCache : 'no-cache',
      ETag: etag,
      'Last-Modified': new Date(Math.floor(stat.mtimeMs / 1000) * 1000).toUTCString(),
      'Accept-Ranges': 'bytes',
    };
    if (compressible) headers.Vary = 'Accept-Encoding';
    if (sent.encoding) headers['Content-Encoding'] = sent.encoding;
    if (policy && type.startsWith('text/html')) headers['Content-Security-Policy'] = policy;
    // Revalidation: If-None-Match wins over If-Modified-Since.
    const inm = req.headers['if-none-match'];
    const ims = Date.parse(req.headers['if-modified-since'] || '');
    const fresh = inm ? inm.split(',').map((t) => t.trim().replace(/^W\//, '')).some((t) => t === etag || t === '*')
      : Number.isFinite(ims) && Math.floor(stat.mtimeMs / 1000) * 1000 <= ims;
    if (fresh) {
      delete headers['Content-Type'];
      res.writeHead(304, headers);
      return res.end();
    }
    const size = sent.stat.size;
    // If-Range with another validator: the whole file, not a piece of a changed one.
    const ifRange = req.headers['if-range'];
    const range = ifRange && ifRange !== etag ? null : byteRange(req.headers.range, size);
    if (range === 'unsatisfiable') {
      return fail(416, 'range not satisfiable', { 'Content-Range': `bytes */${size}` });
    }
    let status = 200, start = 0, end = size - 1;
    if (range) {
      status = 206;
      ({ start, end } = range);
      headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    }
    headers['Content-Length'] = String(size === 0 ? 0 : end - start + 1);
    res.writeHead(status, headers);
    if (req.method === 'HEAD' || size === 0) return res.end();
    fs.createReadStream(sent.file, { start, end }).on('error', () => res.destroy()).pipe(res);
  }
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
