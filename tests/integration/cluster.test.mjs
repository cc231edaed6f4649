// cluster.test.mjs - three `conclave serve` processes on one database behind
// HAProxy (scripts/cluster.sh, docs/scaling.md). 200 tic-tac-toe games are
// played at once through the proxy, with one spectator socket per game,
// while process 1 is killed with -9 and process 2 is drained with SIGTERM
// (process 1 then comes back). A client retries a play whose answer it did
// not get with the same Idempotency-Key, and a socket that closes
// reconnects through the proxy and subscribes again with the version it
// held. Then: every game finished, every acknowledged play is stored
// exactly once, versions are gapless, and every socket followed its game
// to the end without a gap (no patch from a version it did not hold) and
// ends with the document REST shows a spectator.
// Run with no other test file beside it (HAProxy holds fixed ports and three servers load both cores):
// tests/run.sh: alone
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { ROOT, TEST_QUOTAS, createDatabase, dropDatabase, psql, sleep } from './lib/server.mjs';
import { HubClient } from './lib/ws.mjs';

const GAMES = 200;
const haveHaproxy = (() => {
  try {
    execFileSync('haproxy', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

// A free TCP port base with 2*4+2 free ports above it (checked, then released).
async function freeBase() {
  for (;;) {
    const base = 20000 + Math.floor(Math.random() * 20000) * 2;
    const ports = Array.from({ length: 10 }, (_, i) => base + i);
    const ok = await Promise.all(
      ports.map(
        (p) =>
          new Promise((resolve) => {
            const s = net.createServer();
            s.once('error', () => resolve(false));
            s.listen(p, '127.0.0.1', () => s.close(() => resolve(true)));
          }),
      ),
    );
    if (ok.every(Boolean)) return base;
  }
}

// fetch that turns a dropped connection into status 0 instead of throwing.
async function call(base, method, path, { body, token, headers = {} } = {}) {
  const h = { ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  if (body !== undefined) h['content-type'] = 'application/json';
  try {
    const res = await fetch(base + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: res.status, body: parsed, text };
  } catch (e) {
    return { status: 0, body: null, text: String(e) };
  }
}

// The same call until the answer is not a proxy or connection failure
// (0, 502, 503, 504): what a client does with a request it got no answer to.
async function persist(base, method, path, opts) {
  for (let i = 0; ; i++) {
    const r = await call(base, method, path, opts);
    if (![0, 502, 503, 504].includes(r.status)) return r;
    if (i > 200) return r;
    await sleep(50);
  }
}

// A spectator socket through the proxy that reconnects when closed and
// subscribes again with the version it held.
class Follower {
  constructor(wsUrl, game) {
    this.wsUrl = wsUrl;
    this.game = game;
    this.client = null;
    this.reconnects = 0;
    this.mismatches = 0;
    this.stopped = false;
  }

  // Retries until it connects or the follower is closed (a reconnect
  // scheduled just before close() must not retry forever against a stopped
  // cluster, which kept the test process alive).
  async open(held) {
    while (!this.stopped) {
      try {
        const c = await HubClient.connect(this.wsUrl);
        if (this.stopped) {
          c.close();
          return;
        }
        if (held) c.games.set(this.game, held);
        c.send(
          held
            ? { type: 'subscribe', game: this.game, version: held.version }
            : { type: 'subscribe', game: this.game },
        );
        c.ws.on('close', () => {
          this.mismatches += c.mismatches.length;
          if (this.stopped) return;
          this.reconnects++;
          const keep = c.games.get(this.game);
          setTimeout(() => this.open(keep ? structuredClone(keep) : null), 100);
        });
        this.client = c;
        return;
      } catch {
        await sleep(100);
      }
    }
  }

  version() {
    return this.client ? this.client.version(this.game) : null;
  }

  close() {
    this.stopped = true;
    if (this.client) {
      this.mismatches += this.client.mismatches.length;
      this.client.close();
    }
  }
}

function cluster(env, ...args) {
  return execFileSync('bash', ['scripts/cluster.sh', ...args], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    stdio: 'pipe',
  });
}

test(
  '200 games through HAProxy survive a kill -9 and a drain',
  { skip: !haveHaproxy && 'haproxy is not installed', timeout: 600000 },
  async () => {
    const db = createDatabase('cluster');
    const base = await freeBase();
    const env = {
      ...process.env,
      ...TEST_QUOTAS,
      DATABASE_URL: db,
      CLUSTER_STATE: `var/cluster-test-${randomBytes(3).toString('hex')}`,
      CLUSTER_HTTP_PORT: String(base),
      CLUSTER_WS_PORT: String(base + 1),
      CLUSTER_BASE_PORT: String(base),
      CONCLAVE_RATE: '1000000',
      CONCLAVE_RATE_BURST: '1000000',
      CONCLAVE_HTTP_PER_IP: '100000',
      CONCLAVE_WS_PER_IP: '100000',
      CONCLAVE_WS_IP_RATE: '1000000',
      CONCLAVE_WS_IP_RATE_BURST: '1000000',
      CONCLAVE_DRAIN_SECONDS: '3',
      CONCLAVE_LOG_LEVEL: 'warn',
    };
    const url = `http://127.0.0.1:${base}`;
    const wsUrl = `ws://127.0.0.1:${base + 1}/ws`;
    const followers = [];
    try {
      cluster(env, 'start', '3');

      // Players and games, set up through the proxy.
      const players = [];
      for (let i = 0; i < 2 * GAMES; i++) {
        const r = await persist(url, 'POST', '/api/v1/players', {
          body: { name: `cl${i}_${randomBytes(3).toString('hex')}` },
        });
        assert.equal(r.status, 201, r.text);
        players.push(r.body);
      }
      const games = [];
      for (let g = 0; g < GAMES; g++) {
        const [x, o] = [players[2 * g], players[2 * g + 1]];
        const lobby = await persist(url, 'POST', '/api/v1/lobbies', {
          token: x.token,
          body: { ruleset: 'tictactoe', seats: 2 },
        });
        assert.equal(lobby.status, 201, lobby.text);
        assert.equal(
          (
            await persist(url, 'POST', `/api/v1/lobbies/${lobby.body.id}/seats`, {
              token: o.token,
              body: {},
            })
          ).status,
          200,
        );
        const start = await persist(url, 'POST', `/api/v1/lobbies/${lobby.body.id}/start`, {
          token: x.token,
          body: {},
        });
        assert.equal(start.status, 201, start.text);
        games.push({ id: start.body.game, tokens: [x.token, o.token], acked: [] });
      }
      for (const g of games) {
        const f = new Follower(wsUrl, g.id);
        await f.open(null);
        followers.push(f);
      }

      // Play every game at once; the kill and the drain come part-way.
      let acks = 0;
      let refused = 0;
      let lastAck = Date.now();
      let longestGap = 0;
      let killedAt = 0;
      const events = { killed: false, drained: false };
      const maybeDisrupt = () => {
        if (!events.killed && acks >= 300) {
          events.killed = true;
          killedAt = Date.now();
          cluster(env, 'kill', '1');
        } else if (!events.drained && acks >= 700) {
          events.drained = true;
          cluster(env, 'drain', '2');
          setTimeout(() => cluster(env, 'restart', '1'), 500);
        }
      };
      const playGame = async (g) => {
        for (let step = 0; step < 200; step++) {
          const doc = await persist(url, 'GET', `/api/v1/games/${g.id}`, { token: g.tokens[0] });
          assert.equal(doc.status, 200, doc.text);
          if (doc.body.status !== 'running') return;
          const w = doc.body.windows[0];
          const seat = w.seats[0];
          const cell = doc.body.view.board.findIndex((c) => c === null);
          const key = `${g.id}-${w.id}-${randomBytes(4).toString('hex')}`;
          const r = await persist(url, 'POST', `/api/v1/games/${g.id}/plays`, {
            token: g.tokens[seat],
            body: { window: w.id, cell },
            headers: { 'idempotency-key': key },
          });
          if (r.status === 200) {
            g.acked.push(key);
            acks++;
            const now = Date.now();
            if (killedAt) longestGap = Math.max(longestGap, now - lastAck);
            lastAck = now;
            maybeDisrupt();
          } else {
            refused++;
            // Our copy of the game was a moment behind: read it again.
            assert.ok([409, 422].includes(r.status), `play: ${r.status} ${r.text}`);
            await sleep(10);
          }
        }
        assert.fail(`game ${g.id} did not end`);
      };
      const t0 = Date.now();
      await Promise.all(games.map(playGame));
      const seconds = (Date.now() - t0) / 1000;
      assert.ok(events.killed && events.drained, 'the kill and the drain happened mid-game');

      // Stored exactly once, gapless, every game finished.
      const rows = psql(
        db,
        `SELECT g.game_id, g.status, g.version, count(i.seq), coalesce(max(i.seq), 0),
              coalesce(string_agg(i.idem_key, ',' ORDER BY i.seq), '')
         FROM games g LEFT JOIN game_inputs i USING (game_id) GROUP BY g.game_id, g.status, g.version`,
      )
        .split('\n')
        .map((l) => l.split('|'));
      assert.equal(rows.length, GAMES);
      const byId = new Map(rows.map((r) => [r[0], r]));
      let stored = 0;
      for (const g of games) {
        const [, status, version, count, max, keys] = byId.get(g.id);
        assert.equal(status, 'finished', `game ${g.id} finished`);
        assert.equal(Number(count), Number(version), `game ${g.id}: one row per version`);
        assert.equal(Number(max), Number(version), `game ${g.id}: gapless`);
        const storedKeys = keys.split(',').filter(Boolean);
        assert.equal(new Set(storedKeys).size, storedKeys.length, `game ${g.id}: no play twice`);
        for (const k of g.acked)
          assert.ok(storedKeys.includes(k), `acknowledged play ${k} is stored`);
        stored += storedKeys.length;
      }
      assert.equal(
        stored,
        acks,
        "every stored play was acknowledged (no play applied behind a client's back)",
      );

      // Every socket reached the final version without a gap.
      for (const [i, f] of followers.entries()) {
        const g = games[i];
        const version = Number(byId.get(g.id)[2]);
        const end = Date.now() + 20000;
        while (f.version() !== version && Date.now() < end) await sleep(100);
        assert.equal(f.version(), version, `socket for ${g.id} reached version ${version}`);
        const spectator = await persist(url, 'GET', `/api/v1/games/${g.id}`, {});
        assert.deepEqual(
          f.client.doc(g.id).view,
          spectator.body.view,
          `socket for ${g.id} shows what REST shows`,
        );
      }
      // Append conflicts on the processes alive now (a killed one's are gone):
      // with the proxy hashing game paths, a game's plays go to one process.
      let conflicts = 0;
      for (let i = 1; i <= 3; i++) {
        const m = await call(`http://127.0.0.1:${base + 2 * i}`, 'GET', '/metrics');
        const line =
          m.status === 200 &&
          m.text.split('\n').find((l) => l.startsWith('conclave_append_conflicts_total'));
        if (line) conflicts += Number(line.split(' ').pop());
      }
      const reconnects = followers.reduce((n, f) => n + f.reconnects, 0);
      for (const f of followers) f.close();
      const mismatches = followers.reduce((n, f) => n + f.mismatches, 0);
      assert.equal(mismatches, 0, 'no patch applied from a version the socket did not hold');
      assert.ok(reconnects > 0, 'sockets on the killed and the drained process reconnected');
      console.log(
        `# cluster: ${acks} plays in ${seconds.toFixed(1)} s (${(acks / seconds).toFixed(0)}/s) over ${GAMES} games; ` +
          `${refused} plays refused as stale; longest pause between acknowledgements after the kill ${longestGap} ms; ${reconnects} socket reconnects; ${conflicts} append conflicts on the live processes`,
      );
    } finally {
      for (const f of followers) f.close();
      try {
        cluster(env, 'stop');
        fs.rmSync(path.join(ROOT, env.CLUSTER_STATE), { recursive: true, force: true });
      } catch {
        /* already stopped; the logs stay in CLUSTER_STATE */
      }
      dropDatabase(db);
    }
  },
);
