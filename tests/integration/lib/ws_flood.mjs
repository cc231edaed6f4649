// ws_flood.mjs - a hostile WebSocket client for the abuse tests, run as its
// own process so its sending does not slow the honest client being timed.
//
//   node ws_flood.mjs CONFIG_JSON
//
// CONFIG: {url, from (local address), conns, seconds, mode, inflight?}
//   (seconds at most: SIGTERM stops it sooner)
//   mode "phantom": each connection sends subscribes for made-up game ids,
//     `per` (20) every `every` ms (2), reconnecting when the server closes
//     it;
//   mode "tokens": each connection sends random tokens in auth;
//   mode "inflight": each connection keeps `inflight` subscribes for
//     made-up ids outstanding (sending one more per answer), never more;
//   mode "rest": `conns` loops of GET {http}/api/v1/games/<made-up id>.
// Prints one JSON line with what it sent and what came back.
import WebSocket from 'ws';
import { randomBytes } from 'node:crypto';
import { get as httpGet } from 'node:http';

const cfg = JSON.parse(process.argv[2]);
const stats = { sent: 0, answers: {}, closes: {}, connections: 0, refusedUpgrades: 0 };
let end = Date.now() + cfg.seconds * 1000;
// SIGTERM ends the flood early (the test stops it once its honest client is
// done): the loops wind down and the stats are printed as at the end.
process.on('SIGTERM', () => (end = Date.now()));
const id = () => randomBytes(8).toString('hex').slice(0, 16);
const token = () => randomBytes(32).toString('base64url');

function message() {
  if (cfg.mode === 'tokens') return JSON.stringify({ type: 'auth', token: token() });
  return JSON.stringify({ type: 'subscribe', game: id() });
}

function one() {
  return new Promise((resolve) => {
    if (Date.now() >= end) return resolve();
    const ws = new WebSocket(cfg.url, 'conclave.v1', { localAddress: cfg.from });
    let timer = null;
    ws.on('unexpected-response', (req) => {
      stats.refusedUpgrades++;
      req.destroy();
      setTimeout(resolve, 50);
    });
    ws.on('error', () => {});
    ws.on('open', () => {
      stats.connections++;
      if (cfg.mode === 'inflight') {
        for (let i = 0; i < cfg.inflight; i++) {
          ws.send(message());
          stats.sent++;
        }
      } else if (cfg.mode === 'tokens') {
        // a fresh connection per few tokens, as a token guesser would
        for (let i = 0; i < 5; i++) {
          ws.send(message());
          stats.sent++;
        }
        timer = setTimeout(() => ws.close(), 200);
      } else {
        const pump = () => {
          if (Date.now() >= end || ws.readyState !== WebSocket.OPEN) return ws.close();
          for (let i = 0; i < (cfg.per || 20) && ws.bufferedAmount < 65536; i++) {
            ws.send(message());
            stats.sent++;
          }
          timer = setTimeout(pump, cfg.every || 2);
        };
        pump();
      }
    });
    ws.on('message', (data) => {
      let m;
      try {
        m = JSON.parse(data.toString());
      } catch {
        return;
      }
      const k = m.type === 'error' ? String(m.status) : m.type;
      stats.answers[k] = (stats.answers[k] || 0) + 1;
      if (cfg.mode === 'inflight' && Date.now() < end && ws.readyState === WebSocket.OPEN) {
        ws.send(message());
        stats.sent++;
      }
      if (cfg.mode === 'inflight' && Date.now() >= end) ws.close();
    });
    ws.on('close', (code) => {
      clearTimeout(timer);
      stats.closes[code] = (stats.closes[code] || 0) + 1;
      resolve();
    });
  });
}

function rest() {
  return new Promise((resolve) => {
    const req = httpGet(
      `${cfg.http}/api/v1/games/${id()}`,
      { localAddress: cfg.from, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => {
          stats.answers[res.statusCode] = (stats.answers[res.statusCode] || 0) + 1;
          stats.sent++;
          resolve();
        });
      },
    );
    req.on('error', () => resolve());
  });
}

async function loop() {
  while (Date.now() < end) await (cfg.mode === 'rest' ? rest() : one());
}

await Promise.all(Array.from({ length: cfg.conns }, loop));
console.log(JSON.stringify(stats));
process.exit(0);
