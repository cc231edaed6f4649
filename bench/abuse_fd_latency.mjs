// abuse_fd_latency.mjs - the descriptor attack of issue 36 at its own scale,
// run by hand for docs/reliability.md (a figure, never a test's bound): a
// server under a 1,024-descriptor limit; one address (127.0.0.2) opens 977
// ping-answering WebSockets one after another; then an honest client from
// 127.0.0.1 makes 50 REST requests and 50 WebSocket handshakes (each
// answered by a pong), timed, first with the attacker holding its sockets,
// then after it left. Prints one JSON object.
//
//   DATABASE_URL=... CONCLAVE_BIN=$PWD/build/conclave node bench/abuse_fd_latency.mjs
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
} from '../tests/integration/lib/server.mjs';
import { HubClient } from '../tests/integration/lib/ws.mjs';

const LIMIT = Number(process.env.FD_LIMIT || 1024);
const ATTACK = Number(process.env.FD_ATTACK || 977);
const SAMPLES = 50;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conclave-fdbench-'));
const wrapper = path.join(dir, 'conclave');
fs.writeFileSync(
  wrapper,
  `#!/bin/sh\nexec prlimit --nofile=${LIMIT}:${LIMIT} ${JSON.stringify(BIN)} "$@"\n`,
);
fs.chmodSync(wrapper, 0o755);
const db = createDatabase('fdbench');
const srv = await startServer({ db, bin: wrapper });

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.min(s.length - 1, Math.ceil(s.length * p) - 1)].toFixed(2));
};

async function honest() {
  const rest = [];
  const ws = [];
  for (let i = 0; i < SAMPLES; i++) {
    let t0 = performance.now();
    const r = await http(srv.url, 'GET', '/api/v1/rulesets');
    if (r.status !== 200) throw new Error(`REST ${r.status}`);
    rest.push(performance.now() - t0);
    t0 = performance.now();
    const c = await HubClient.connect(srv.wsUrl);
    c.send({ type: 'ping' });
    await c.next('pong', { timeout: 30000 });
    ws.push(performance.now() - t0);
    c.close();
    await sleep(20);
  }
  return {
    rest_ms: { p50: pct(rest, 0.5), p99: pct(rest, 0.99), max: pct(rest, 1) },
    ws_handshake_and_pong_ms: { p50: pct(ws, 0.5), p99: pct(ws, 0.99), max: pct(ws, 1) },
  };
}

const metric = async (name) => {
  const t = (await http(srv.url, 'GET', '/metrics')).text;
  return Number(t.match(new RegExp(`^${name} (\\S+)$`, 'm'))?.[1] ?? 0);
};

// The server's resident memory in MiB (the wrapper execs it: same pid).
const rss = () =>
  Number(
    (
      Number(fs.readFileSync(`/proc/${srv.proc.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) /
      1024
    ).toFixed(1),
  );

const quiet = await honest();
const rssQuiet = rss();
const held = [];
let refused = 0;
for (let i = 0; i < ATTACK; i++) {
  try {
    held.push(await HubClient.connect(srv.wsUrl, { localAddress: '127.0.0.2' }));
  } catch {
    refused++;
  }
}
const attacked = await honest();
const rssAttacked = rss();
const out = {
  limit: LIMIT,
  attack: ATTACK,
  attacker_open: held.filter((c) => !c.closed).length,
  attacker_refused: refused,
  refused_per_ip_total: await metric('conclave_ws_refused_per_ip_total'),
  quiet,
  attacked,
  rss_mib: { quiet: rssQuiet, attacked: rssAttacked },
};
for (const c of held) c.close();
await srv.stop();
dropDatabase(db);
fs.rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify(out, null, 2));
