// durability_drill.mjs - the durability drill of integration/durability
// (kill -9 of the server mid-way) and integration/durability_outage
// (PostgreSQL stopped in immediate mode mid-way): about a thousand
// concurrent plays and orders over HTTP across 50 games; clients retry
// unanswered requests with their idempotency keys.
//
// Every acknowledgement is recorded as it arrives: game, seat, window, seq
// (the version in the answer) and the SHA-256 of the canonical payload. A
// second acknowledgement for one (game, window, seat) fails the drill. After
// the disruption every client is held back until the stored rows have been
// compared with the acknowledgements, so nothing a client sends later can
// stand in for a lost input; and payloads (a random cell, a random note) and
// idempotency keys are random, so a retry after the fact would not match the
// lost row anyway. At the end every acknowledged input is in the store
// exactly once, retried plays got their original answers, and every game
// replays to its hash.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ROOT,
  BIN,
  createDatabase,
  dropDatabase,
  startServer,
  http,
  psql,
  sleep,
  canonicalJson,
} from './server.mjs';

const run = promisify(execFile);
export const pg = (...args) =>
  run('bash', [path.join(ROOT, 'scripts/pg.sh'), ...args], { cwd: ROOT });

const TTT_GAMES = 25;
const RPS_GAMES = 25;
const RPS_ROUNDS = 17; // 25 x 17 rounds x 2 orders = 850, plus ~175 plays

const payloadHash = (v) => createHash('sha256').update(canonicalJson(v)).digest('hex');

// The acknowledgements of one drill. `add` refuses a second one for one
// (game, window, seat): a window takes one input per seat, and a client that
// is acknowledged twice for it re-created something.
class Ledger {
  constructor() {
    this.byWindow = new Map();
    this.list = [];
  }

  add(ack) {
    const k = `${ack.game}/${ack.window}/${ack.seat}`;
    const prev = this.byWindow.get(k);
    assert.equal(
      prev,
      undefined,
      `a second acknowledgement for ${k}: ${JSON.stringify(prev)} then ${JSON.stringify(ack)}`,
    );
    this.byWindow.set(k, ack);
    this.list.push(ack);
  }
}

// Every acknowledgement against the stored rows (queried directly): the row
// at (game, seq) exists with the acknowledged seat, kind, window and payload.
// Returns a list of human-readable mismatches.
function compareWithStore(db, acks) {
  const rows = JSON.parse(
    psql(
      db,
      `SELECT coalesce(json_agg(json_build_object(
    'game', game_id, 'seq', seq, 'seat', seat, 'kind', kind, 'window', window_id,
    'payload', payload, 'key', idem_key)), '[]') FROM game_inputs`,
    ),
  );
  const at = new Map(rows.map((r) => [`${r.game}/${r.seq}`, r]));
  const bad = [];
  for (const a of acks) {
    const r = at.get(`${a.game}/${a.seq}`);
    if (!r) bad.push(`missing: ${a.kind} ${a.game} seq ${a.seq} window ${a.window} seat ${a.seat}`);
    else if (
      r.kind !== a.kind ||
      r.seat !== a.seat ||
      r.window !== a.window ||
      payloadHash(JSON.parse(r.payload)) !== a.hash ||
      (a.key && r.key !== a.key)
    ) {
      bad.push(
        `changed: ${a.kind} ${a.game} seq ${a.seq}: acknowledged ${JSON.stringify(a)}, stored ${JSON.stringify(r)}`,
      );
    }
  }
  return { rows, bad };
}

// Retry a request until the server answers (it may be dead or without its
// database for a while). Returns the first non-5xx answer. While the drill
// holds clients back (ref.gate), no attempt starts.
async function persist(ref, method, p, opts) {
  for (let attempt = 0; ; attempt++) {
    while (ref.gate) await ref.gate;
    if (ref.over) throw new Error('the drill is over');
    ref.inflight++;
    try {
      const r = await http(ref.url, method, p, opts);
      if (r.status < 500 && r.status !== 429) return r;
    } catch {
      /* connection refused or reset: the server is down */
    } finally {
      ref.inflight--;
    }
    if (attempt > 2000) throw new Error(`gave up on ${method} ${p}`);
    await sleep(25 + Math.random() * 50);
  }
}

async function setupGames(srv) {
  const players = [];
  for (let i = 0; i < 2; i++) {
    const r = await http(srv.url, 'POST', '/api/v1/players', {
      body: { name: `drill_${i}_${Date.now() % 1e6}` },
    });
    assert.equal(r.status, 201, r.text);
    players.push(r.body);
  }
  const games = [];
  const make = async (ruleset, options) => {
    const lobby = await http(srv.url, 'POST', '/api/v1/lobbies', {
      token: players[0].token,
      body: { ruleset, seats: 2, options },
    });
    assert.equal(lobby.status, 201, lobby.text);
    const join = await http(srv.url, 'POST', `/api/v1/lobbies/${lobby.body.id}/seats`, {
      token: players[1].token,
      body: {},
    });
    assert.equal(join.status, 200, join.text);
    const start = await http(srv.url, 'POST', `/api/v1/lobbies/${lobby.body.id}/start`, {
      token: players[0].token,
    });
    assert.equal(start.status, 201, start.text);
    games.push({ id: start.body.game, ruleset });
  };
  const jobs = [];
  for (let i = 0; i < TTT_GAMES; i++) jobs.push(make('tictactoe', {}));
  for (let i = 0; i < RPS_GAMES; i++) jobs.push(make('rps', { rounds: RPS_ROUNDS }));
  await Promise.all(jobs);
  return { players, games };
}

// One seat of one game, played until the game ends. Every acknowledged
// input goes into the ledger the moment its answer arrives.
async function playSeat(ref, game, seat, token, ledger, stats) {
  for (;;) {
    const g = await persist(ref, 'GET', `/api/v1/games/${game.id}`, { token });
    assert.equal(g.status, 200, g.text);
    if (g.body.status !== 'running') return;
    const w = g.body.windows.find((x) => x.seats.includes(seat) && !x.submitted.includes(seat));
    if (!w) {
      await sleep(5);
      continue;
    }
    if (game.ruleset === 'tictactoe') {
      const free = g.body.view.board.map((c, i) => (c === null ? i : -1)).filter((i) => i >= 0);
      const body = { window: w.id, cell: free[randomInt(free.length)] };
      const key = randomBytes(12).toString('base64url'); // the same on every retry of this play
      const r = await persist(ref, 'POST', `/api/v1/games/${game.id}/plays`, {
        token,
        body,
        headers: { 'idempotency-key': key },
      });
      if (r.status === 200) {
        ledger.add({
          game: game.id,
          seat,
          window: w.id,
          kind: 'play',
          seq: r.body.version,
          hash: payloadHash({ cell: body.cell }),
          key,
        });
        // Retry on purpose: the stored answer must come back, and nothing is stored again.
        const again = await persist(ref, 'POST', `/api/v1/games/${game.id}/plays`, {
          token,
          body,
          headers: { 'idempotency-key': key },
        });
        assert.equal(again.status, 200, again.text);
        assert.deepEqual(again.body, r.body, 'a retried play gets its original answer');
        stats.retriedPlays++;
      } else {
        // Only a play that was never answered may find its window closed: our
        // own earlier attempt is then in the store under this key (checked at the end).
        assert.equal(r.status, 409, r.text);
        stats.lateInputs++;
        stats.unanswered.push({ game: game.id, seat, window: w.id, key });
      }
    } else {
      const order = {
        throw: ['rock', 'paper', 'scissors'][randomInt(3)],
        note: randomBytes(9).toString('base64url'),
      };
      const r = await persist(ref, 'PUT', `/api/v1/games/${game.id}/orders/${w.id}`, {
        token,
        body: order,
      });
      if (r.status === 200) {
        assert.match(r.body.receipt, /^[0-9a-f]{64}$/);
        ledger.add({
          game: game.id,
          seat,
          window: w.id,
          kind: 'order',
          seq: r.body.version,
          hash: payloadHash(order),
        });
      } else {
        // The window locked meanwhile: our earlier, unanswered order was
        // applied before the disruption. Not acknowledged; the end checks
        // that the window holds an order of this seat.
        assert.equal(r.status, 409, r.text);
        stats.lateInputs++;
        stats.unanswered.push({ game: game.id, seat, window: w.id });
      }
    }
  }
}

// Hold every client back, wait for requests in flight, run fn, let them go.
async function holdClients(ref, fn) {
  let release;
  ref.gate = new Promise((r) => {
    release = r;
  });
  try {
    return await fn();
  } finally {
    ref.gate = null;
    release();
  }
}

export async function drill(disrupt) {
  const db = createDatabase('drill');
  const ref = { inflight: 0, gate: null };
  // A hundred clients share one IP and two tokens: lift the rate limit and
  // the per-IP connection cap, which are there for real clients.
  const env = {
    CONCLAVE_RATE: '1000000',
    CONCLAVE_RATE_BURST: '1000000',
    CONCLAVE_HTTP_PER_IP: '1000',
  };
  let srv = await startServer({ db, env });
  ref.url = srv.url;
  const ports = {
    ...env,
    CONCLAVE_HTTP_PORT: String(srv.httpPort),
    CONCLAVE_WS_PORT: String(srv.wsPort),
  };
  try {
    const { players, games } = await setupGames(srv);
    const ledger = new Ledger();
    const stats = { retriedPlays: 0, lateInputs: 0, unanswered: [] };
    const total = () => Number(psql(db, 'SELECT count(*) FROM game_inputs'));
    let failure = null;
    const playing = Promise.all(
      games.flatMap((g) =>
        [0, 1].map((seat) => playSeat(ref, g, seat, players[seat].token, ledger, stats)),
      ),
    ).catch((e) => {
      failure = e;
      ref.gate = null;
    });
    // Disrupt mid-way.
    while (total() < 400 && !failure) await sleep(20);
    const before = total();
    let acked = 0;
    await holdClients(ref, async () => {
      if (disrupt === 'kill') {
        srv.proc.kill('SIGKILL');
        await srv.exited;
        await sleep(300);
        srv = await startServer({ db, env: ports });
      } else {
        await pg('stop', 'immediate');
        // While the database is down, requests fail fast with 503: each
        // is answered while it is still down (it is started again only
        // after), not held until it comes back. An order, not a time; the
        // time is printed, for the log only.
        const t0 = Date.now();
        const r = await http(srv.url, 'GET', `/api/v1/games/${games[0].id}`, {
          token: players[0].token,
        });
        const dt = Date.now() - t0;
        assert.ok(r.status === 503 || r.status === 200, `status ${r.status}`);
        const p = await http(srv.url, 'POST', `/api/v1/games/${games[0].id}/plays`, {
          token: players[0].token,
          body: { window: 'none', cell: 0 },
          headers: { 'idempotency-key': 'outage-probe' },
        });
        assert.equal(p.status, 503, p.text);
        console.log(`# the database down: GET answered ${r.status} in ${dt} ms, a play 503`);
        await sleep(500);
        await pg('start');
        // Let the server see its database again before comparing.
        for (let i = 0; i < 200; i++) {
          if ((await http(srv.url, 'GET', '/readyz').catch(() => ({ status: 0 }))).status === 200)
            break;
          await sleep(50);
        }
      }
      // Nothing in flight any more; no client sends anything until this is done.
      while (ref.inflight > 0) await sleep(10);
      const { bad } = compareWithStore(db, ledger.list);
      assert.deepEqual(
        bad.slice(0, 10),
        [],
        `${bad.length} acknowledged inputs not stored as acknowledged after the ${disrupt}`,
      );
      acked = ledger.list.length;
    });
    await playing;
    if (failure) throw failure;
    const after = total();

    // Every acknowledged input is stored exactly once, as acknowledged.
    const { rows, bad } = compareWithStore(db, ledger.list);
    assert.deepEqual(
      bad.slice(0, 10),
      [],
      `${bad.length} acknowledged inputs not stored as acknowledged`,
    );
    const plays = rows.filter((r) => r.kind === 'play');
    // One play per tic-tac-toe window, one row per idempotency key, and every
    // play that went unanswered is stored under its key (it closed its window).
    const perWindow = new Map();
    const perKey = new Map();
    for (const r of plays) {
      perWindow.set(`${r.game}/${r.window}`, (perWindow.get(`${r.game}/${r.window}`) || 0) + 1);
      perKey.set(`${r.game}/${r.key}`, (perKey.get(`${r.game}/${r.key}`) || 0) + 1);
    }
    assert.deepEqual(
      [...perWindow].filter(([, n]) => n > 1),
      [],
      'a play applied twice',
    );
    assert.deepEqual(
      [...perKey].filter(([, n]) => n > 1),
      [],
      'an idempotency key stored twice',
    );
    const orderAt = new Set(
      rows.filter((r) => r.kind === 'order').map((r) => `${r.game}/${r.window}/${r.seat}`),
    );
    for (const u of stats.unanswered) {
      if (u.key)
        assert.equal(
          perKey.get(`${u.game}/${u.key}`),
          1,
          `unanswered play ${JSON.stringify(u)} not stored`,
        );
      else
        assert.ok(
          orderAt.has(`${u.game}/${u.window}/${u.seat}`),
          `unanswered order ${JSON.stringify(u)} not stored`,
        );
    }
    // Every input the store holds was acknowledged or is one of those unanswered.
    assert.equal(
      plays.length + orderAt.size,
      ledger.list.length + stats.unanswered.length,
      'stored inputs match acknowledged + unanswered',
    );
    assert.ok(ledger.list.length >= 900, `only ${ledger.list.length} acknowledged inputs`);
    assert.ok(acked > 0 && before < after, 'the drill disrupted games in progress');

    // Versions are gapless and every game replays to its stored hash.
    const gaps = psql(
      db,
      `SELECT count(*) FROM games g WHERE version <>
      (SELECT count(*) FROM game_inputs i WHERE i.game_id = g.game_id)
      OR version <> (SELECT coalesce(max(seq), 0) FROM game_inputs i WHERE i.game_id = g.game_id)`,
    );
    assert.equal(gaps, '0');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conclave-export-'));
    try {
      for (const g of games) {
        const ex = await http(srv.url, 'GET', `/api/v1/games/${g.id}/export`, {
          token: players[0].token,
        });
        assert.equal(ex.status, 200, ex.text);
        const file = path.join(dir, `${g.id}.json`);
        fs.writeFileSync(file, ex.text);
        const out = await run(BIN, ['replay', file]);
        assert.equal(JSON.parse(out.stdout).match, true, out.stdout);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    return {
      acks: ledger.list.length,
      acked,
      before,
      after,
      retriedPlays: stats.retriedPlays,
      lateInputs: stats.lateInputs,
    };
  } finally {
    ref.over = true; // clients still retrying (after a failure) stop now
    ref.gate = null;
    await srv.stop();
    dropDatabase(db);
  }
}
