// http_suspend.test.mjs - a play waiting for its commit does not hold an
// HTTP thread (api/suspend.h): its connection is suspended and the game's
// actor resumes it with the answer. With 2 HTTP threads, 24 plays wait at
// once on commits held back by a row lock taken from psql, while the
// server still answers /metrics (which counts them as suspended), /healthz
// and game reads; releasing the lock answers every play, also one whose
// client went away meanwhile. A server stopped with plays suspended waits
// for their answers, then exits cleanly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  createDatabase,
  dropDatabase,
  startServer,
  http,
  psql,
  waitFor,
  sleep,
} from './lib/server.mjs';
import { newPlayer, newGame, getGame, play, stopClean } from './lib/ws.mjs';
import { NO_LIMITS } from './lib/api.mjs';

const THREADS = 2;

// A psql session holding FOR UPDATE locks on the rows of the given games:
// every append to them waits (it bumps games.version) until release().
async function lockGames(db, ids) {
  const app = `suspend_lock_${process.pid}`;
  const ps = spawn('psql', ['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', db], {
    stdio: ['pipe', 'ignore', 'pipe'],
    env: { ...process.env, PGAPPNAME: app },
  });
  let err = '';
  ps.stderr.on('data', (d) => (err += d));
  const list = ids.map((id) => `'${id}'`).join(',');
  ps.stdin.write(`BEGIN;\nSELECT game_id FROM games WHERE game_id IN (${list}) FOR UPDATE;\n`);
  // psql's output is buffered on a pipe: ask the server instead.
  await waitFor(
    () =>
      psql(
        db,
        `SELECT count(*) FROM pg_stat_activity WHERE application_name = '${app}' AND state = 'idle in transaction'`,
      ) === '1',
    { what: 'psql to lock the games' },
  ).catch((e) => {
    throw new Error(
      `${e.message}: ${err} ${psql(db, 'SELECT application_name, state, wait_event, query FROM pg_stat_activity')}`,
    );
  });
  const exited = new Promise((resolve) => ps.on('exit', resolve));
  return {
    async release() {
      ps.stdin.write('ROLLBACK;\n\\q\n');
      await exited;
    },
  };
}

// GET with a deadline: a server whose HTTP threads are all blocked fails
// here instead of hanging the test.
async function quick(url, p) {
  const r = await fetch(url + p, { signal: AbortSignal.timeout(3000) });
  return { status: r.status, text: await r.text() };
}

function suspendedNow(metrics) {
  const m = /^conclave_http_suspended (\d+)/m.exec(metrics);
  return m ? Number(m[1]) : null;
}

// Every answer, or a failure if one has not come 30 s after the commits
// could go on (a request never resumed).
function answered(plays) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('a suspended play was never answered')), 30000);
  });
  return Promise.race([Promise.all(plays), late]).finally(() => clearTimeout(timer));
}

// n tic-tac-toe games between fresh players, with seat 0's open window.
async function games(url, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const p = [await newPlayer(url, 'su'), await newPlayer(url, 'su')];
    const id = await newGame(url, 'tictactoe', p);
    const w = (await getGame(url, id, p[0].token)).windows.find((x) => x.seats.includes(0));
    out.push({ id, p, window: w.id });
  }
  return out;
}

test(
  `${THREADS} HTTP threads serve 24 plays waiting for their commits at once`,
  { timeout: 120000 },
  async () => {
    const db = createDatabase('susp');
    const srv = await startServer({
      db,
      env: { ...NO_LIMITS, CONCLAVE_HTTP_THREADS: String(THREADS) },
    });
    let lock;
    try {
      const gs = await games(srv.url, 24);
      lock = await lockGames(
        db,
        gs.map((g) => g.id),
      );

      // Two clients give up while their play waits; the rest wait on.
      const aborts = gs.slice(0, 2).map(() => new AbortController());
      const plays = gs.map((g, i) =>
        fetch(`${srv.url}/api/v1/games/${g.id}/plays`, {
          method: 'POST',
          headers: { authorization: `Bearer ${g.p[0].token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ window: g.window, cell: 4 }),
          signal: aborts[i]?.signal,
        }).then(
          async (r) => ({ status: r.status, body: await r.json() }),
          (e) => ({ aborted: e.name }),
        ),
      );

      // Every play is suspended, none holds a thread: the server answers.
      await waitFor(
        async () => suspendedNow((await quick(srv.url, '/metrics')).text) === gs.length,
        {
          timeout: 20000,
          what: `all ${gs.length} plays suspended`,
        },
      );
      assert.equal((await quick(srv.url, '/healthz')).status, 200, 'healthz while the plays wait');
      const view = await http(srv.url, 'GET', `/api/v1/games/${gs[5].id}`, {
        token: gs[5].p[1].token,
      });
      assert.equal(view.status, 200, 'a read of a game whose play waits');
      assert.equal(view.body.version, 0, 'the waiting play is not visible before its commit');
      for (const a of aborts) a.abort();
      await sleep(200);

      await lock.release();
      lock = null;
      const answers = await answered(plays);
      answers.slice(0, 2).forEach((a) => assert.equal(a.aborted, 'AbortError'));
      for (const a of answers.slice(2)) {
        assert.equal(a.status, 200, JSON.stringify(a));
        assert.equal(a.body.version, 1);
      }
      // The plays whose clients went away were committed all the same.
      for (const g of gs.slice(0, 2)) {
        const got = await waitFor(async () => {
          const r = await getGame(srv.url, g.id, g.p[1].token);
          return r.version === 1 ? r : null;
        });
        assert.equal(got.version, 1);
      }
      await waitFor(async () => suspendedNow((await quick(srv.url, '/metrics')).text) === 0, {
        what: 'no request suspended after the answers',
      });
    } finally {
      if (lock) await lock.release();
      await stopClean(srv);
      dropDatabase(db);
    }
  },
);

test(
  'a server stopped while plays are suspended answers them, then exits 0',
  { timeout: 60000 },
  async () => {
    const db = createDatabase('susp');
    const srv = await startServer({
      db,
      env: { ...NO_LIMITS, CONCLAVE_HTTP_THREADS: String(THREADS), CONCLAVE_DRAIN_SECONDS: '0' },
    });
    let lock;
    try {
      const gs = await games(srv.url, 6);
      lock = await lockGames(
        db,
        gs.map((g) => g.id),
      );
      const plays = gs.map((g) => play(srv.url, g.id, g.p[0].token, { window: g.window, cell: 0 }));
      await waitFor(
        async () => suspendedNow((await quick(srv.url, '/metrics')).text) === gs.length,
        {
          what: 'the plays suspended',
        },
      );
      const exited = srv.stop('SIGTERM');
      // Longer than the 5 s the server gives in-flight requests in general.
      await sleep(6500);
      assert.equal(srv.proc.exitCode, null, 'the server waits for its suspended plays');
      assert.equal(srv.proc.signalCode, null, 'the server waits for its suspended plays');
      await lock.release();
      lock = null;
      for (const r of await answered(plays)) assert.equal(r.status, 200, r.text);
      const { code } = await exited;
      assert.equal(code, 0, 'exit 0 once every suspended play is answered');
    } finally {
      if (lock) await lock.release();
      await srv.stop();
      dropDatabase(db);
    }
  },
);
