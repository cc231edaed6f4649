// notifications_quiet.test.mjs - games where nobody can be told cost the
// notification path nothing, and that saving drops nothing anyone must be
// told: the start or a move of a game none of whose seated players has a
// channel writes no outbox fact (sql/011_notify_quiet_games.sql,
// sql/020_started_facts.sql); the notifier's claim drops the facts of games
// that went quiet after they were written and keeps those of a game where
// only its second seat listens (server/notify/notify.c); a player who adds a
// webhook mid-game is told at the next version; facts of a listened game
// claimed in one batch with a quiet game's are planned (the batch is made
// certain by holding the notifier on a lock).
// Webhooks only (no SMTP): games of rock-paper-scissors, 3 rounds.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createDatabase, dropDatabase, startServer, psql, waitFor, http } from './lib/server.mjs';
import { client, newPlayer, newLobby } from './lib/api.mjs';
import { hookSink } from './lib/notify_sinks.mjs';

const cleanups = [];
after(async () => {
  for (const f of cleanups.reverse()) await f();
});

// A server whose notifier looks for facts once a second, so that the facts
// of several games wait for one claim.
async function setup() {
  const hooks = hookSink();
  await hooks.listen();
  const db = createDatabase('notifyq');
  const server = await startServer({
    db,
    env: {
      CONCLAVE_NOTIFY_TICK_MS: '1000',
      CONCLAVE_RATE: '1000000',
      CONCLAVE_RATE_BURST: '1000000',
    },
  });
  const ctx = { hooks, db, server, call: client(server.url) };
  cleanups.push(async () => {
    await server.stop('SIGKILL');
    await hooks.close();
    dropDatabase(db);
  });
  return ctx;
}

const player = (ctx) => newPlayer(ctx.call, { guest: true, prefix: 'q' });

async function addHook(ctx, p) {
  const r = await ctx.call('POST', '/api/v1/me/notifications/webhooks', {
    token: p.token,
    body: { url: `http://127.0.0.1:${ctx.hooks.port}/hook/${p.name}` },
  });
  assert.equal(r.status, 201, r.text);
  return r.body.id;
}

// A 3-round game, the host in seat 0, the other in seat 1.
async function rpsGame(ctx, [host, other]) {
  const lobby = await newLobby(
    ctx.call,
    host,
    { ruleset: 'rps', seats: 2, options: { rounds: 3 }, clock: { mode: 'live', seconds: 600 } },
    [other],
  );
  const s = await ctx.call('POST', `/api/v1/lobbies/${lobby.id}/start`, { token: host.token });
  assert.equal(s.status, 201, s.text);
  return { id: s.body.game, players: [host, other] };
}

async function order(ctx, game, p, round) {
  const o = await ctx.call('PUT', `/api/v1/games/${game.id}/orders/r${round}`, {
    token: p.token,
    body: { throw: 'rock' },
  });
  assert.equal(o.status, 200, o.text);
}

const postsOf = (ctx, game, seat) =>
  ctx.hooks.posts.filter((x) => x.body.game?.id === game.id && x.body.seat === seat);
const told = (ctx, game, seat) =>
  postsOf(ctx, game, seat).map((x) => `${x.body.event}:${x.body.windows.map((w) => w.id).join()}`);
const factsLeft = (ctx) => psql(ctx.db, 'SELECT count(*) FROM notify_facts') === '0';
async function factsRead(ctx) {
  const r = await http(ctx.server.url, 'GET', '/metrics');
  return Number(/^conclave_notify_facts_total (\d+)/m.exec(r.text)?.[1] ?? 0);
}
const version = (ctx, game) =>
  Number(psql(ctx.db, `SELECT version FROM games WHERE game_id = '${game.id}'`));

test(
  'a game where only its second seat listens is told everything among quiet games, which write no facts',
  { timeout: 120000 },
  async () => {
    const ctx = await setup();
    const [ann, ben] = [await player(ctx), await player(ctx)];
    await addHook(ctx, ben);
    const quietPlayers = [];
    for (let i = 0; i < 6; i++) quietPlayers.push(await player(ctx));
    // Started together: only the listened game writes a 'started' fact
    // (sql/020_started_facts.sql); the quiet games' starts write none.
    const readBefore = await factsRead(ctx);
    const [heard, ...quiet] = await Promise.all([
      rpsGame(ctx, [ann, ben]),
      ...[0, 2, 4].map((i) => rpsGame(ctx, quietPlayers.slice(i, i + 2))),
    ]);
    await waitFor(() => told(ctx, heard, 1).includes('waiting:r1'), { what: 'ben waiting r1' });
    await waitFor(() => factsLeft(ctx), { what: 'the outbox drained' });
    const read0 = await factsRead(ctx),
      v0 = version(ctx, heard);
    assert.equal(read0 - readBefore, 1, "the listened game's 'started' fact alone");
    // Every game plays its rounds at the same time.
    for (const round of [1, 2, 3]) {
      await Promise.all(
        [heard, ...quiet].flatMap((g) => g.players.map((p) => order(ctx, g, p, round))),
      );
      if (round < 3)
        await waitFor(() => told(ctx, heard, 1).includes(`waiting:r${round + 1}`), {
          what: `ben waiting r${round + 1}`,
        });
    }
    await waitFor(() => told(ctx, heard, 1).some((t) => t.startsWith('ended')), {
      what: 'ben told of the end',
    });
    assert.deepEqual(
      told(ctx, heard, 1)
        .map((t) => t.split(':')[0])
        .sort(),
      ['ended', 'started', 'waiting', 'waiting', 'waiting'],
      told(ctx, heard, 1).join(' '),
    );
    assert.equal(postsOf(ctx, heard, 0).length, 0, 'ann has no channel');
    for (const g of quiet)
      assert.equal(version(ctx, g), version(ctx, heard), 'each quiet game played as many throws');
    await waitFor(() => factsLeft(ctx), { what: 'the outbox drained' });
    assert.equal(
      (await factsRead(ctx)) - read0,
      version(ctx, heard) - v0,
      "facts of the listened game's versions only",
    );
  },
);

test(
  'a player who adds a webhook mid-game is told at the next version, and of the end',
  { timeout: 120000 },
  async () => {
    const ctx = await setup();
    const [cal, dee] = [await player(ctx), await player(ctx)];
    const game = await rpsGame(ctx, [cal, dee]);
    for (const p of [cal, dee]) await order(ctx, game, p, 1);
    await waitFor(() => factsLeft(ctx), { what: 'the outbox drained' });
    await addHook(ctx, dee);
    // Cal throws in r2: r2 still waits on Dee, who now listens.
    await order(ctx, game, cal, 2);
    await waitFor(() => told(ctx, game, 1).includes('waiting:r2'), { what: 'dee waiting r2' });
    await order(ctx, game, dee, 2);
    await waitFor(() => told(ctx, game, 1).includes('waiting:r3'), { what: 'dee waiting r3' });
    for (const p of [cal, dee]) await order(ctx, game, p, 3);
    await waitFor(() => told(ctx, game, 1).some((t) => t.startsWith('ended')), {
      what: 'dee told of the end',
    });
    assert.deepEqual(
      told(ctx, game, 1).map((t) => t.split(':')[0]),
      ['waiting', 'waiting', 'ended'],
      told(ctx, game, 1).join(' '),
    );
    assert.equal(postsOf(ctx, game, 0).length, 0, 'cal has no channel');
  },
);

// A psql session holding notify_told locked (ACCESS EXCLUSIVE) until
// release(): a notifier planning a listened game waits on it.
async function holdTold(url) {
  const proc = spawn('psql', ['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', url], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  proc.stdout.on('data', (d) => {
    out += d;
  });
  proc.stdin.write("BEGIN;\nLOCK TABLE notify_told IN ACCESS EXCLUSIVE MODE;\nSELECT 'locked';\n");
  await waitFor(() => out.includes('locked'), { what: 'the lock on notify_told' });
  const done = new Promise((r) => proc.on('exit', r));
  cleanups.push(() => {
    proc.kill();
    return done;
  });
  return {
    release: async () => {
      proc.stdin.end('COMMIT;\n');
      await done;
    },
  };
}

test(
  "facts of a listened game claimed in one batch with a quiet game's are planned",
  { timeout: 120000 },
  async () => {
    const ctx = await setup();
    const [ann, ben, gil, hal] = [
      await player(ctx),
      await player(ctx),
      await player(ctx),
      await player(ctx),
    ];
    const [eve, fay] = [await player(ctx), await player(ctx)];
    await addHook(ctx, ben);
    await addHook(ctx, hal);
    const heard = await rpsGame(ctx, [ann, ben]);
    const decoy = await rpsGame(ctx, [gil, hal]);
    await waitFor(
      () =>
        told(ctx, heard, 1).includes('waiting:r1') && told(ctx, decoy, 1).includes('waiting:r1'),
      { what: 'ben and hal waiting r1' },
    );
    await waitFor(() => factsLeft(ctx), { what: 'the outbox drained' });
    // The notifier claims the decoy's fact and waits on the lock while planning it.
    const lock = await holdTold(ctx.db);
    await order(ctx, decoy, gil, 1);
    await waitFor(
      () =>
        psql(
          ctx.db,
          "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%notify_told%'",
        ) !== '0',
      { what: 'the notifier waiting on notify_told' },
    );
    // Meanwhile: a game starts while eve has a webhook (its 'started' fact
    // is written), then eve removes it, which makes the game quiet; and the
    // heard game moves to r2. The next claim holds both games' facts.
    const eveHook = await addHook(ctx, eve);
    await rpsGame(ctx, [eve, fay]);
    const gone = await ctx.call('DELETE', `/api/v1/me/notifications/webhooks/${eveHook}`, {
      token: eve.token,
    });
    assert.equal(gone.status, 204, gone.text);
    for (const p of [ann, ben]) await order(ctx, heard, p, 1);
    assert.equal(
      psql(
        ctx.db,
        `SELECT count(DISTINCT game_id) FROM notify_facts WHERE game_id <> '${decoy.id}'`,
      ),
      '2',
      "the quiet game's fact and the heard game's wait together",
    );
    await lock.release();
    await waitFor(() => told(ctx, heard, 1).includes('waiting:r2'), { what: 'ben waiting r2' });
    await waitFor(() => factsLeft(ctx), { what: 'the outbox drained' });
  },
);
