// multiprocess.test.mjs - two `conclave serve` processes on one database,
// applying to the same games at once: seat 0 plays through process A and
// seat 1 through process B. Versions stay gapless, nothing is applied
// twice, and both processes end with the same state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDatabase, dropDatabase, startServer, http, psql, sleep } from './lib/server.mjs';

const GAMES = 20;

test('two processes share games without losing or doubling an input', { timeout: 180000 }, async () => {
  const db = createDatabase('multi');
  const env = { CONCLAVE_RATE: '1000000', CONCLAVE_RATE_BURST: '1000000', CONCLAVE_HTTP_PER_IP: '1000' };
  const a = await startServer({ db, env });
  const b = await startServer({ db, env });
  try {
    const players = [];
    for (const [i, srv] of [a, b].entries()) {
      const r = await http(srv.url, 'POST', '/api/v1/players', { body: { name: `multi_${i}_${Date.now() % 1e6}` } });
      assert.equal(r.status, 201, r.text);
      players.push(r.body);
    }
    const games = [];
    for (let i = 0; i < GAMES; i++) {
      const ruleset = i % 2 ? 'tictactoe' : 'rps';
      const lobby = await http(a.url, 'POST', '/api/v1/lobbies', {
        token: players[0].token, body: { ruleset, seats: 2, ...(ruleset === 'rps' ? { options: { rounds: 6 } } : {}) },
      });
      assert.equal(lobby.status, 201, lobby.text);
      // Joined and started through the other process.
      assert.equal((await http(b.url, 'POST', `/api/v1/lobbies/${lobby.body.id}/seats`, { token: players[1].token, body: {} })).status, 200);
      const start = await http(b.url, 'POST', `/api/v1/lobbies/${lobby.body.id}/start`, { token: players[0].token });
      assert.equal(start.status, 201, start.text);
      games.push({ id: start.body.game, ruleset });
    }
    let conflicts = 0;
    const playSeat = async (srv, seat, game) => {
      const token = players[seat].token;
      for (let step = 0; step < 500; step++) {
        const g = await http(srv.url, 'GET', `/api/v1/games/${game.id}`, { token });
        assert.equal(g.status, 200, g.text);
        if (g.body.status !== 'running') return;
        const w = g.body.windows.find((x) => x.seats.includes(seat) && !x.submitted.includes(seat));
        if (!w) {
          await sleep(5);
          continue;
        }
        let r;
        if (game.ruleset === 'tictactoe') {
          const cell = g.body.view.board.findIndex((c) => c === null);
          r = await http(srv.url, 'POST', `/api/v1/games/${game.id}/plays`, {
            token, body: { window: w.id, cell }, headers: { 'idempotency-key': `${game.id}-${w.id}` },
          });
        } else {
          r = await http(srv.url, 'PUT', `/api/v1/games/${game.id}/orders/${w.id}`, { token, body: { throw: 'rock' } });
        }
        if (r.status === 409) conflicts++; // our copy was a moment behind: read again
        else assert.equal(r.status, 200, r.text);
      }
      assert.fail('the game did not end');
    };
    await Promise.all(games.flatMap((g) => [playSeat(a, 0, g), playSeat(b, 1, g)]));

    for (const g of games) {
      const rows = psql(db, `SELECT count(*), coalesce(max(seq), 0), (SELECT version FROM games WHERE game_id = '${g.id}')
        FROM game_inputs WHERE game_id = '${g.id}'`).split('|').map(Number);
      assert.equal(rows[0], rows[1], 'seq has no gaps');
      assert.equal(rows[1], rows[2], 'games.version is the last seq');
      const dup = psql(db, `SELECT count(*) FROM (SELECT window_id, seat FROM game_inputs
        WHERE game_id = '${g.id}' GROUP BY 1, 2 HAVING count(*) > 1) d`);
      assert.equal(dup, '0', 'one input per window and seat');
      // Both processes serve the same final state.
      const ga = await http(a.url, 'GET', `/api/v1/games/${g.id}`, { token: players[0].token });
      const gb = await http(b.url, 'GET', `/api/v1/games/${g.id}`, { token: players[0].token });
      assert.equal(ga.body.status, 'finished');
      assert.equal(ga.body.version, rows[2]);
      assert.deepEqual(gb.body, ga.body);
    }
    console.log(`# ${GAMES} games across two processes; ${conflicts} stale reads answered 409 and re-read`);
  } finally {
    await a.stop();
    await b.stop();
    dropDatabase(db);
  }
});
