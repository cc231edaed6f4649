// abuse_fd.test.mjs - the descriptors of the WebSocket port under attack, with
// the server started under a soft descriptor limit of 200 and a hard one of
// 256 (prlimit): it raises the soft one to 256 and the caps come from it
// (the "descriptors" log line); one address holding its
// per-address cap (open WebSockets and sockets that never handshake) is
// refused past it at accept, while a client from 127.0.0.1 still gets HTTP
// answers and a WebSocket; many addresses together reach the global cap
// and no more, HTTP is still answered, and accept() never fails; /metrics
// counts every refusal by its cause. And should accept() fail all the same
// (a cap set above the descriptors), its errors are logged at most once
// every 5 s, with their count.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BIN,
  createDatabase,
  dropDatabase,
  startServer,
  http,
  sleep,
  waitFor,
} from './lib/server.mjs';
import { HubClient, stopClean } from './lib/ws.mjs';

const SOFT = 200; // the soft descriptor limit the server starts with
const LIMIT = 256; // the hard one, which it raises the soft one to
const PER_IP = 8; // CONCLAVE_WS_PER_IP

let db;
let srv;
let dir;
let budget; // the server's "descriptors" log line
const held = []; // every client socket the tests open, closed at the end

before(async () => {
  db = createDatabase('fd');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conclave-fd-'));
  const wrapper = path.join(dir, 'conclave-256');
  fs.writeFileSync(
    wrapper,
    `#!/bin/sh\nexec prlimit --nofile=${SOFT}:${LIMIT} ${JSON.stringify(BIN)} "$@"\n`,
  );
  fs.chmodSync(wrapper, 0o755);
  srv = await startServer({
    db,
    bin: wrapper,
    env: { CONCLAVE_WS_PER_IP: String(PER_IP), CONCLAVE_HTTP_PER_IP: '16' },
  });
  budget = srv.lines.map((l) => JSON.parse(l)).find((e) => e.event === 'descriptors');
});
after(async () => {
  for (const s of held) s.destroy?.() ?? s.terminate?.();
  try {
    if (srv) await stopClean(srv);
  } finally {
    if (db) dropDatabase(db);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
});

// A WebSocket from address `from`: {client} once open, {refused} when the
// server closes or refuses it first.
async function wsFrom(from) {
  try {
    const client = await HubClient.connect(srv.wsUrl, { localAddress: from });
    held.push(client.ws);
    return { client };
  } catch (e) {
    return { refused: e };
  }
}

// A TCP connection to the WebSocket port from `from` that never sends a
// byte (a handshake that never comes). Resolves once connected.
function silentFrom(from) {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host: '127.0.0.1', port: srv.wsPort, localAddress: from });
    sock.closedByServer = false;
    sock.on('close', () => (sock.closedByServer = true));
    sock.on('error', () => {});
    sock.once('connect', () => resolve(sock));
    sock.once('error', reject);
    held.push(sock);
  });
}

async function metric(name) {
  const r = await http(srv.url, 'GET', '/metrics');
  assert.equal(r.status, 200);
  const m = r.text.match(new RegExp(`^${name} (\\S+)$`, 'm'));
  return m ? Number(m[1]) : 0;
}

// The honest client: a REST answer and a WebSocket that answers a ping.
async function honestServed() {
  const h = await http(srv.url, 'GET', '/api/v1/rulesets');
  assert.equal(h.status, 200, 'an HTTP answer');
  const c = await HubClient.connect(srv.wsUrl);
  c.send({ type: 'ping' });
  await c.next('pong', { timeout: 30000 });
  c.close();
}

test('the caps come from the raised descriptor limit', () => {
  assert.ok(budget, 'a "descriptors" line at start');
  assert.equal(budget.limit, LIMIT);
  assert.equal(budget.raised, true, `raised from ${SOFT}`);
  assert.ok(budget.ws_max > 0 && budget.http_max > 0);
  assert.equal(budget.reserve + budget.http_max + budget.ws_max, LIMIT, 'all of it, no more');
});

test('one address at its cap is refused at accept; 127.0.0.1 is still served', async () => {
  const before = await metric('conclave_ws_refused_per_ip_total');
  // Half the cap in sockets that never handshake, half in open WebSockets.
  const silent = [];
  for (let i = 0; i < PER_IP / 2; i++) silent.push(await silentFrom('127.0.0.2'));
  const open = [];
  for (let i = 0; i < PER_IP / 2; i++) open.push(await wsFrom('127.0.0.2'));
  assert.equal(open.filter((x) => x.client).length, PER_IP / 2, 'up to the cap: open');
  const over = [];
  for (let i = 0; i < 5; i++) over.push(await wsFrom('127.0.0.2'));
  assert.equal(over.filter((x) => x.refused).length, 5, 'past the cap: refused');
  assert.ok(
    silent.every((s) => !s.closedByServer),
    'the silent sockets still held their slots when the others were refused',
  );
  await honestServed();
  assert.equal((await metric('conclave_ws_refused_per_ip_total')) - before, 5);
  for (const x of open) x.client.close();
  for (const s of silent) s.destroy();
});

test('many addresses reach the global cap and no more; HTTP is still served', async () => {
  const before = await metric('conclave_ws_refused_max_total');
  await waitFor(async () => (await metric('conclave_ws_sockets')) === 0, {
    timeout: 30000,
    what: 'the earlier sockets closed',
  });
  const want = budget.ws_max + 6;
  const results = [];
  for (let i = 0; results.length < want; i++) {
    const from = `127.0.1.${10 + Math.floor(i / PER_IP)}`;
    results.push(await wsFrom(from));
  }
  const opened = results.filter((x) => x.client).length;
  assert.equal(opened, budget.ws_max, 'the global cap, every address under its own cap');
  assert.equal(results.length - opened, 6);
  assert.equal((await metric('conclave_ws_refused_max_total')) - before, 6);
  assert.equal(await metric('conclave_ws_sockets'), budget.ws_max);
  // The descriptors are not exhausted: HTTP answers, and a WebSocket from
  // 127.0.0.1 is refused by the cap (counted), not by a failing accept().
  assert.equal((await http(srv.url, 'GET', '/api/v1/rulesets')).status, 200);
  assert.ok((await wsFrom('127.0.0.1')).refused);
  assert.equal((await metric('conclave_ws_refused_max_total')) - before, 7);
  for (const x of results) x.client?.close();
  await waitFor(async () => (await metric('conclave_ws_sockets')) === 0, {
    timeout: 30000,
    what: 'the sockets closed',
  });
  await honestServed();
  assert.ok(
    !srv.lines.some((l) => l.includes('accept: errno') || l.includes('ws_accept_failed')),
    'accept() never failed',
  );
});

test('accept errors are logged at most once every 5 s, with their count', async (t) => {
  // A cap above what the descriptors allow: accept() runs out of them.
  const small = 128;
  const wrapper = path.join(dir, 'conclave-small');
  fs.writeFileSync(
    wrapper,
    `#!/bin/sh\nexec prlimit --nofile=${small}:${small} ${JSON.stringify(BIN)} "$@"\n`,
  );
  fs.chmodSync(wrapper, 0o755);
  const db2 = createDatabase('fdx');
  const s2 = await startServer({
    db: db2,
    bin: wrapper,
    env: { CONCLAVE_WS_MAX: '1000', CONCLAVE_WS_PER_IP: '1000' },
  });
  const socks = [];
  try {
    assert.ok(s2.lines.some((l) => l.includes('"descriptors_overcommitted"')));
    // More sockets than descriptors; those past the limit wait in the
    // listen queue, and accept() fails for them again and again.
    for (let i = 0; i < small + 20; i++) {
      const sock = net.connect({ host: '127.0.0.1', port: s2.wsPort });
      sock.on('error', () => {});
      socks.push(sock);
    }
    const failed = () => s2.lines.filter((l) => l.includes('"ws_accept_failed"'));
    await waitFor(() => failed().length > 0, { timeout: 30000, what: 'an accept error' });
    const first = Date.now();
    // Let the errors go on for a while (each is a failed accept in a loop).
    await sleep(2500);
    const seconds = (Date.now() - first) / 1000;
    for (const sock of socks) sock.destroy();
    const lines = failed().map((l) => JSON.parse(l));
    assert.ok(lines.length <= 1 + Math.ceil(seconds / 5), `${lines.length} lines`);
    assert.ok(lines.every((e) => e.count >= 1 && /^accept: errno 24/.test(e.message)));
    assert.ok(!s2.lines.some((l) => l.includes('"lws"') && l.includes('accept:')));
    await waitFor(async () => (await http(s2.url, 'GET', '/healthz')).status === 200, {
      timeout: 30000,
      what: 'HTTP again once the sockets are gone',
    });
    const errors = await http(s2.url, 'GET', '/metrics');
    const total = Number(errors.text.match(/^conclave_ws_accept_errors_total (\S+)$/m)?.[1] ?? 0);
    assert.ok(total > lines.length, `${total} errors in ${lines.length} lines`);
    t.diagnostic(`${total} accept errors in ${seconds.toFixed(1)} s, ${lines.length} log lines`);
  } finally {
    for (const sock of socks) sock.destroy();
    await stopClean(s2);
    dropDatabase(db2);
  }
});
