// server.mjs - shared helpers for integration tests: fresh databases on the
// private Postgres, starting and stopping real `conclave serve` processes,
// and a small JSON HTTP client.
import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const BIN =
  process.env.CONCLAVE_BIN || path.join(ROOT, process.env.BUILD || 'build', 'conclave');
export const BASE_URL = process.env.DATABASE_URL;

if (!BASE_URL) throw new Error('DATABASE_URL is not set: run the tests through `make test`');

// The same connection URL with another database name.
export function dbUrl(name) {
  const u = new URL(BASE_URL);
  u.pathname = '/' + name;
  return u.toString();
}

export function psql(url, sql) {
  return execFileSync('psql', ['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', url, '-c', sql], {
    encoding: 'utf8',
  }).trim();
}

// A new empty database; returns its URL. Dropped by dropDatabase.
export function createDatabase(prefix = 't') {
  const name = `conclave_${prefix}_${randomBytes(5).toString('hex')}`;
  psql(BASE_URL, `CREATE DATABASE ${name}`);
  return dbUrl(name);
}

export function dropDatabase(url) {
  const name = new URL(url).pathname.slice(1);
  try {
    psql(BASE_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } catch {
    /* the cluster may be down in an outage test; the next run cleans up */
  }
}

// The per-account and per-address quotas raised out of the way: the tests
// make many accounts, lobbies, games, order changes and WebSockets from one
// address and one account. A test of the quotas themselves passes realQuotas: true
// to run with the server's own defaults (abuse_quota.test.mjs).
export const TEST_QUOTAS = {
  CONCLAVE_LOBBIES_PER_PLAYER: '1000000',
  CONCLAVE_LIVE_GAMES_PER_PLAYER: '1000000',
  CONCLAVE_ASYNC_GAMES_PER_PLAYER: '1000000',
  CONCLAVE_SIGNUPS_PER_HOUR: '1000000',
  CONCLAVE_SIGNINS_PER_MINUTE: '1000000',
  CONCLAVE_SCRYPT_CONCURRENCY: '256',
  CONCLAVE_ORDER_CHANGES: '1000000',
  // WebSocket sockets per address: the canary alone follows its games with
  // well over the default 64 from 127.0.0.1. The cap's own tests set theirs.
  CONCLAVE_WS_PER_IP: '100000',
};

// Start `conclave serve` on free ports. Resolves once it logs "listening".
// bin and cwd: another build's binary, run in its own tree (the plug-in path
// test serves a scratch copy). Webhooks may go to loopback and private
// addresses (CONCLAVE_WEBHOOK_ALLOW_PRIVATE=1): the tests' receivers listen
// on 127.0.0.1; a test of the outbound checks passes privateWebhooks: false.
export async function startServer({
  db,
  env = {},
  args = [],
  realQuotas = false,
  privateWebhooks = true,
  bin = BIN,
  cwd = ROOT,
} = {}) {
  const proc = spawn(bin, ['serve', ...args], {
    cwd,
    env: {
      ...process.env,
      DATABASE_URL: db,
      CONCLAVE_HTTP_PORT: '0',
      CONCLAVE_WS_PORT: '0',
      CONCLAVE_LOG_LEVEL: 'info',
      ...(realQuotas ? {} : TEST_QUOTAS),
      CONCLAVE_WEBHOOK_ALLOW_PRIVATE: privateWebhooks ? '1' : '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = [];
  let buffered = '';
  const exited = new Promise((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const listening = new Promise((resolve, reject) => {
    proc.stderr.on('data', (chunk) => {
      buffered += chunk;
      let i;
      while ((i = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, i);
        buffered = buffered.slice(i + 1);
        lines.push(line);
        try {
          const ev = JSON.parse(line);
          if (ev.event === 'listening') resolve(ev);
        } catch {
          /* not JSON: ASan or a crash message; kept in lines */
        }
      }
    });
    exited.then(({ code, signal }) =>
      reject(
        new Error(`conclave exited (${code ?? signal}) before listening:\n${lines.join('\n')}`),
      ),
    );
  });
  proc.stdout.resume();
  const ev = await listening;
  const server = {
    proc,
    lines,
    exited,
    httpPort: ev.http_port,
    wsPort: ev.ws_port,
    url: `http://127.0.0.1:${ev.http_port}`,
    wsUrl: `ws://127.0.0.1:${ev.ws_port}/ws`,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
  return server;
}

// fetch with JSON in and out. Returns {status, headers, body, text}.
export async function http(base, method, p, { body, token, headers = {}, raw } = {}) {
  const h = { ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  let payload;
  if (raw !== undefined) payload = raw;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    h['content-type'] = 'application/json';
  }
  // Redirects are answers to check, not to follow.
  const res = await fetch(base + p, { method, headers: h, body: payload, redirect: 'manual' });
  const text = await res.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// JSON with sorted keys and no spaces (the server's canonical form: request
// hashes and receipts are computed over it).
export function canonicalJson(v) {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

// Poll fn until it returns truthy or the timeout passes.
export async function waitFor(fn, { timeout = 10000, interval = 100, what = 'condition' } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(interval);
  }
}

// Wait until server's set of listened players and games (those with a
// channel, server/notify/notify_listened.h, reloaded every 2 s) has what
// db holds: after channels written behind the server's back, which only a
// reload brings in. Compares the conclave_notify_listened gauge with the
// same count in the database.
export async function waitListenedReload(server, db) {
  const want = Number(
    psql(
      db,
      `SELECT (SELECT count(*) FROM players p WHERE EXISTS (SELECT 1 FROM notify_webhooks w
                 WHERE w.player_id = p.id AND w.game_id IS NULL)
                 OR EXISTS (SELECT 1 FROM notify_settings s WHERE s.player_id = p.id
                 AND s.email_verified))
            + (SELECT count(*) FROM notify_webhooks WHERE game_id IS NOT NULL)`,
    ),
  );
  await waitFor(
    async () => {
      const r = await http(server.url, 'GET', '/metrics');
      return Number(/^conclave_notify_listened (\d+)/m.exec(r.text)?.[1] ?? -1) === want;
    },
    { interval: 200, what: `the listened set reloaded (${want} entries)` },
  );
}
