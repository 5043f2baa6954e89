// scripts/serve.mjs serves a directory as a real static host: precompressed copies by
// Accept-Encoding, a year's cache for content-hashed names and revalidation for the rest, 304s,
// ranges, HEAD, types, the security headers. Plain HTTP requests against a small site made here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { startServer, contentSecurityPolicy, byteRange } from '../../scripts/serve.mjs';

const script = 'export const answer = 42;\n'.repeat(40);
let dir, server;
before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-serve-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
  fs.writeFileSync(path.join(dir, 'app-0123abcd.js'), script);
  fs.writeFileSync(path.join(dir, 'app-0123abcd.js.gz'), zlib.gzipSync(script));
  fs.writeFileSync(path.join(dir, 'app-0123abcd.js.br'), zlib.brotliCompressSync(script));
  fs.writeFileSync(path.join(dir, 'plain.js'), script);
  fs.writeFileSync(path.join(dir, 'core-89abcdef.wasm'), Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]));
  fs.mkdirSync(path.join(dir, 'sub'));
  fs.writeFileSync(path.join(dir, 'sub', 'index.html'), '<!doctype html><title>sub</title>');
  server = await startServer({ root: dir, port: 0 });
});
after(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

// fetch() would decode the body and hide Content-Encoding's effect: the raw bytes are read here.
const get = (file, headers = {}, method = 'GET') => fetch(server.url + file, { method, headers, redirect: 'manual' })
  .then(async (r) => ({ status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) }));

test('precompressed copies by Accept-Encoding: br before gzip, identity otherwise; Vary always', async () => {
  const br = await get('app-0123abcd.js', { 'Accept-Encoding': 'gzip, deflate, br' });
  assert.equal(br.headers.get('content-encoding'), 'br');
  assert.equal(br.headers.get('vary'), 'Accept-Encoding');
  assert.equal(br.headers.get('content-type'), 'text/javascript; charset=utf-8');
  const gz = await get('app-0123abcd.js', { 'Accept-Encoding': 'gzip, br;q=0' });
  assert.equal(gz.headers.get('content-encoding'), 'gzip');
  const plain = await get('app-0123abcd.js', { 'Accept-Encoding': 'identity' });
  assert.equal(plain.headers.get('content-encoding'), null);
  assert.equal(plain.headers.get('content-length'), String(script.length));
  // Node's fetch decodes: the same text whatever was sent.
  for (const r of [br, gz, plain]) assert.equal(r.body.toString(), script);
  // No copy beside it: the file itself, never compressed on the fly.
  const unhashed = await get('plain.js', { 'Accept-Encoding': 'br, gzip' });
  assert.equal(unhashed.headers.get('content-encoding'), null);
});

test('caching: a year for hashed names, revalidation for HTML and unhashed files; 304 by ETag and by date', async () => {
  const hashed = await get('app-0123abcd.js');
  assert.equal(hashed.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  const wasm = await get('core-89abcdef.wasm');
  assert.equal(wasm.headers.get('content-type'), 'application/wasm');
  assert.equal(wasm.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  const html = await get('index.html');
  assert.equal(html.headers.get('cache-control'), 'no-cache');
  assert.equal(html.headers.get('content-security-policy'), contentSecurityPolicy);
  assert.equal(html.headers.get('x-content-type-options'), 'nosniff');
  assert.equal((await get('plain.js')).headers.get('cache-control'), 'no-cache');
  assert.equal((await get('plain.js')).headers.get('content-security-policy'), null, 'the policy is for pages');
  const etag = html.headers.get('etag');
  assert.match(etag, /^"[0-9a-f]+-[0-9a-f]+"$/);
  const again = await get('index.html', { 'If-None-Match': etag });
  assert.equal(again.status, 304);
  assert.equal(again.body.length, 0);
  assert.equal((await get('index.html', { 'If-None-Match': '"other"' })).status, 200);
  assert.equal((await get('index.html', { 'If-Modified-Since': html.headers.get('last-modified') })).status, 304);
  assert.equal((await get('index.html', { 'If-Modified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' })).status, 200);
  // Each encoding is its own representation, with its own tag.
  const brTag = (await get('app-0123abcd.js', { 'Accept-Encoding': 'br' })).headers.get('etag');
  const gzTag = (await get('app-0123abcd.js', { 'Accept-Encoding': 'gzip' })).headers.get('etag');
  assert.notEqual(brTag, gzTag);
  assert.equal((await get('app-0123abcd.js', { 'Accept-Encoding': 'br', 'If-None-Match': brTag })).status, 304);
});

test('ranges: one range is 206 with Content-Range, past the end is 416, HEAD sends no body', async () => {
  const part = await get('plain.js', { Range: 'bytes=7-12' });
  assert.equal(part.status, 206);
  assert.equal(part.headers.get('content-range'), `bytes 7-12/${script.length}`);
  assert.equal(part.body.toString(), script.slice(7, 13));
  const tail = await get('plain.js', { Range: 'bytes=-5' });
  assert.equal(tail.body.toString(), script.slice(-5));
  const open = await get('plain.js', { Range: `bytes=${script.length - 3}-` });
  assert.equal(open.body.toString(), script.slice(-3));
  const past = await get('plain.js', { Range: `bytes=${script.length}-` });
  assert.equal(past.status, 416);
  assert.equal(past.headers.get('content-range'), `bytes */${script.length}`);
  assert.equal((await get('plain.js', { Range: 'bytes=0-1,4-5' })).status, 200, 'several ranges: the whole file');
  assert.equal((await get('plain.js', { Range: 'bytes=0-1', 'If-Range': '"old"' })).status, 200, 'a changed file: whole');
  const head = await get('plain.js', {}, 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.headers.get('content-length'), String(script.length));
  assert.equal(head.body.length, 0);
  assert.deepEqual(byteRange('bytes=5-2', 10), null);
  assert.deepEqual(byteRange('bytes=0-99', 10), { start: 0, end: 9 });
});

test('errors: 404, 405 with Allow, no way out of the root, a folder without its slash is redirected', async () => {
  assert.equal((await get('missing.js')).status, 404);
  const post = await get('index.html', {}, 'POST');
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('allow'), 'GET, HEAD');
  // fetch() resolves dots itself: the raw request line is sent through http.get.
  // Dots in the path are resolved by the URL parser first (inside the root: not found); an escaped
  // slash survives it and is refused once decoded.
  for (const [raw, expected] of [['/../../etc/passwd', 404], ['/%2e%2e/%2e%2e/etc/passwd', 404],
    ['/sub/..%2f..%2f..%2fetc/passwd', 403]]) {
    const status = await new Promise((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: new URL(server.url).port, path: raw }, (r) => { r.resume(); resolve(r.statusCode); })
        .on('error', reject);
    });
    assert.equal(status, expected, raw);
  }
  const sub = await get('sub');
  assert.equal(sub.status, 301);
  assert.equal(sub.headers.get('location'), '/sub/');
  assert.match((await get('sub/')).body.toString(), /<title>sub<\/title>/);
});

// The raw request line, sent as written (fetch() and the URL parser would normalise it first).
const raw = (pathText, method = 'GET') => new Promise((resolve, reject) => {
  http.request({ host: '127.0.0.1', port: new URL(server.url).port, path: pathText, method }, (r) => {
    r.resume();
    r.on('end', () => resolve({ status: r.statusCode, location: r.headers.location }));
  }).on('error', reject).end();
});

test('no request stops the server: control characters are refused, and it answers the next request', async () => {
  // A line break in a path that resolves to a folder made the redirect's Location header throw
  // inside the async handler, and Node exited (issue 24).
  const hostile = ['/%0a%2f..', '/%0d%0a%2f..', '/sub%0a', '/%0a%2f..%2fsub', '/%09', '/%7f%2f..', '/%1b/..%2fsub',
    '/%0aSet-Cookie:%20x=1%2f..', '/sub/%0a%2f..'];
  for (const p of hostile) {
    const r = await raw(p);
    assert.equal(r.status, 400, p);
    assert.equal(r.location, undefined, p);
    // The server is still there, and serves.
    assert.equal((await get('index.html')).status, 200, `after ${p}`);
  }
  for (const p of ['/%0a%2f..', '/sub%0d']) assert.equal((await raw(p, 'HEAD')).status, 400, `HEAD ${p}`);
  assert.equal((await get('index.html')).status, 200);
});

test('a redirect names a path on this host, written from the resolved folder, never from the raw request', async () => {
  for (const [p, location] of [['/%2fevil.example%2f..%2fsub', '/sub/'], ['//evil.example/..%2fsub', null],
    ['/%2f%2fevil.example%2f..%2fsub', '/sub/'], ['/%2fevil.example%2f..', null], ['/sub', '/sub/'],
    ['/./sub', '/sub/'], ['/%5cevil.example%2f..%2fsub', null]]) {
    const r = await raw(p);
    if (location === null) {  // refused or not found; a redirect, if any, stays here
      if (r.status === 301) assert.equal(new URL(r.location, server.url).host, new URL(server.url).host, p);
      continue;
    }
    assert.equal(r.status, 301, p);
    assert.equal(r.location, location, p);
    // Resolved against the page, the redirect stays on this host.
    assert.equal(new URL(r.location, server.url).host, new URL(server.url).host, p);
  }
});

// The raw bytes `request` (written at once, the socket left open) get as an answer: the status
// line's code, once the server has answered and closed.
const rawSocket = (port, request) => new Promise((resolve, reject) => {
  const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
  let text = '';
  socket.on('data', (d) => { text += d.toString('latin1'); });
  socket.on('error', reject);
  socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(text)?.[1]), text }));
});

test('a request the parser refuses gets its own status, as nginx answers: 408 for slow headers, 431 for oversized ones, 400 otherwise; the server serves on', async () => {
  // A server that waits 300 ms for headers (the default waits a minute).
  const slow = await startServer({ root: dir, port: 0, headersTimeoutMs: 300 });
  const port = Number(new URL(slow.url).port);
  try {
    const cases = [
      // headers that never end (a slowloris client): the timeout
      ['GET /index.html HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n', 408],
      // one header of 20,000 bytes: over Node's 16 KiB
      [`GET /index.html HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20000)}\r\n\r\n`, 431],
      // the same size as many headers
      [`GET /index.html HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'b'.repeat(40)}\r\n`).join('')}\r\n`, 431],
      // a request line that is not HTTP
      ['NOT A REQUEST\r\n\r\n', 400],
      // a header line without its colon
      ['GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n', 400],
      // a NUL byte inside a header name
      ['GET / HTTP/1.1\r\nHo\x00st: x\r\n\r\n', 400],
    ];
    for (const [request, status] of cases) {
      const r = await rawSocket(port, request);
      assert.equal(r.status, status, `${JSON.stringify(request.slice(0, 60))}: ${r.text.split('\r\n')[0]}`);
      assert.match(r.text, /\r\nConnection: close\r\n/);
      // The server is still there, and serves.
      const ok = await fetch(slow.url + 'index.html');
      assert.equal(ok.status, 200, `after ${status}`);
      await ok.arrayBuffer();
    }
  } finally {
    await slow.close();
  }
});
