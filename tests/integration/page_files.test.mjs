// page_files.test.mjs - the web page's files as a browser fetches them: the
// right type, an ETag and "Cache-Control: no-cache", an empty 304 when the
// browser revalidates an unchanged file, a new ETag and the new body as soon
// as the file changes, and nothing outside the web root. The server serves a
// scratch copy of web/ (CONCLAVE_WEB_ROOT) so that a file can change.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, createDatabase, dropDatabase, startServer, http } from './lib/server.mjs';

let db, srv, webRoot;

before(async () => {
  webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'conclave-web-'));
  fs.cpSync(path.join(ROOT, 'web'), webRoot, { recursive: true });
  db = createDatabase('pagefiles');
  srv = await startServer({ db, env: { CONCLAVE_WEB_ROOT: webRoot } });
});

after(async () => {
  await srv?.stop();
  if (db) dropDatabase(db);
  if (webRoot) fs.rmSync(webRoot, { recursive: true, force: true });
});

test('each file carries its type, an ETag and no-cache; the API stays no-store', async () => {
  for (const [p, type] of [
    ['/', 'text/html; charset=utf-8'],
    ['/app.js', 'text/javascript; charset=utf-8'],
    ['/style.css', 'text/css; charset=utf-8'],
  ]) {
    const r = await http(srv.url, 'GET', p);
    assert.equal(r.status, 200, p);
    assert.equal(r.headers.get('content-type'), type, p);
    assert.match(r.headers.get('etag') ?? '', /^"[0-9a-f]+-[0-9a-f]+\.[0-9a-f]+"$/, p);
    assert.equal(r.headers.get('cache-control'), 'no-cache', p);
  }
  const api = await http(srv.url, 'GET', '/api/v1/rulesets');
  assert.equal(api.status, 200);
  assert.equal(api.headers.get('cache-control'), 'no-store');
});

test('a revalidation of an unchanged file is an empty 304 with the same ETag', async () => {
  const first = await http(srv.url, 'GET', '/app.js');
  const etag = first.headers.get('etag');
  assert.ok(first.text.length > 100, 'the file itself the first time');
  for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
    const again = await http(srv.url, 'GET', '/app.js', { headers: { 'if-none-match': inm } });
    assert.equal(again.status, 304, inm);
    assert.equal(again.text, '', inm);
    assert.equal(again.headers.get('etag'), etag, inm);
    assert.equal(again.headers.get('cache-control'), 'no-cache', inm);
  }
  // Another file's tag, or a tag that only starts the same, is no match.
  const css = (await http(srv.url, 'GET', '/style.css')).headers.get('etag');
  for (const inm of [css, etag.slice(0, -1) + '0"', etag.slice(0, -2) + '"']) {
    const r = await http(srv.url, 'GET', '/app.js', { headers: { 'if-none-match': inm } });
    assert.equal(r.status, 200, inm);
    assert.equal(r.text, first.text, inm);
  }
  // A client route (/game/ID) is the page itself, with the page's ETag.
  const page = await http(srv.url, 'GET', '/');
  const route = await http(srv.url, 'GET', '/game/abc', {
    headers: { 'if-none-match': page.headers.get('etag') },
  });
  assert.equal(route.status, 304);
});

test('a changed file is sent again at once, under a new ETag', async () => {
  const file = path.join(webRoot, 'howto.js');
  const before = await http(srv.url, 'GET', '/howto.js');
  const old = before.headers.get('etag');
  // The same size (one letter changed): only the modification time tells.
  const text = before.text.replace('e', 'E');
  assert.equal(Buffer.byteLength(text), Buffer.byteLength(before.text));
  fs.writeFileSync(file, text);
  // Set apart from the copy's time even on a coarse clock, as a deploy is.
  const later = new Date(Date.now() + 5000);
  fs.utimesSync(file, later, later);
  const after = await http(srv.url, 'GET', '/howto.js', { headers: { 'if-none-match': old } });
  assert.equal(after.status, 200);
  assert.equal(after.text, text);
  assert.notEqual(after.headers.get('etag'), old);
  const same = await http(srv.url, 'GET', '/howto.js', {
    headers: { 'if-none-match': after.headers.get('etag') },
  });
  assert.equal(same.status, 304);
});

test('/favicon.ico is "no icon" (204), not an error: the page names its icon inline', async () => {
  const r = await http(srv.url, 'GET', '/favicon.ico');
  assert.equal(r.status, 204);
  assert.equal(r.text, '');
});

test('nothing outside the web root is served, with or without a tag', async () => {
  for (const p of ['/../README.md', '/%2e%2e/README.md', '/a//b.js', '/nope.js']) {
    const r = await http(srv.url, 'GET', p, { headers: { 'if-none-match': '*' } });
    assert.equal(r.status, 404, p);
  }
});
