// multiprocess.test.mjs - two `conclave serve` processes on one database,
// applying to the same games at once: seat 0 plays through process A and
// seat 1 through process B. Versions stay gapless, nothing is applied
// twice, and both processes end with the same state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDatabase, dropDatabase, startServer, http, psql, sleep } from './lib/server.mjs';

const GAMES = 20;

test(
  'two processes share games without losing or doubling an input',
  { timeout: 180000 },
  async () => {
    const db = createDatabase('multi');
    const env = {
      CONCLAVE_RATE: '1000000',
      CONCLAVE_RATE_BURST: '1000000',
      CONCLAVE_HTTP_PER_IP: '1000',
    };
    const a = await startServer({ db, env });
    const b = await startServer({ db, env });
    try {
      const players = [];
      for (const [i, srv] of [a, b].entries()) {
        const r = await http(srv.url, 'POST', '/api/v1/players', {
          body: { name: `multi_${i}_${Date.now() % 1e6}` },
        });
        assert.equal(r.status, 201, r.text);
        players.push(r.body);
      }
      const games = [];
      for (let i = 0; i < GAMES; i++) {
        const ruleset = i % 2 ? 'tictactoe' : 'rps';
        const lobby = await http(a.url, 'POST', '/api/v1/lobbies', {
          token: players[0].token,
          body: { ruleset, seats: 2, ...(ruleset === 'rps' ? { options: { rounds: 6 } } : {}) },
        });
        assert.equal(lobby.status, 201, lobby.text);
        // Joined and started through the other process.
        assert.equal(
          (
            await http(b.url, 'POST', `/api/v1/lobbies/${lobby.body.id}/seats`, {
              token: players[1].token,
              body: {},
            })
          ).status,
          200,
        );
        const start = await http(b.url, 'POST', `/api/v1/lobbies/${lobby.body.id}/start`, {
          token: players[0].token,
        });
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
          const w = g.body.windows.find(
            (x) => x.seats.includes(seat) && !x.submitted.includes(seat),
          );
          if (!w) {
            await sleep(5);
            continue;
          }
          let r;
          if (game.ruleset === 'tictactoe') {
            const cell = g.body.view.board.findIndex((c) => c === null);
            r = await http(srv.url, 'POST', `/api/v1/games/${game.id}/plays`, {
              token,
              body: { window: w.id, cell },
              headers: { 'idempotency-key': `${game.id}-${w.id}` },
            });
          } else {
            r = await http(srv.url, 'PUT', `/api/v1/games/${game.id}/orders/${w.id}`, {
              token,
              body: { throw: 'rock' },
            });
          }
          if (r.status === 409)
            conflicts++; // our copy was a moment behind: read again
          else assert.equal(r.status, 200, r.text);
        }
        assert.fail('the game did not end');
      };
      await Promise.all(games.flatMap((g) => [playSeat(a, 0, g), playSeat(b, 1, g)]));

      for (const g of games) {
        const rows = psql(
          db,
          `SELECT count(*), coalesce(max(seq), 0), (SELECT version FROM games WHERE game_id = '${g.id}')
        FROM game_inputs WHERE game_id = '${g.id}'`,
        )
          .split('|')
          .map(Number);
        assert.equal(rows[0], rows[1], 'seq has no gaps');
        assert.equal(rows[1], rows[2], 'games.version is the last seq');
        const dup = psql(
          db,
          `SELECT count(*) FROM (SELECT window_id, seat FROM game_inputs
        WHERE game_id = '${g.id}' GROUP BY 1, 2 HAVING count(*) > 1) d`,
        );
        assert.equal(dup, '0', 'one input per window and seat');
        // Both processes serve the same final state.
        const ga = await http(a.url, 'GET', `/api/v1/games/${g.id}`, { token: players[0].token });
        const gb = await http(b.url, 'GET', `/api/v1/games/${g.id}`, { token: players[0].token });
        assert.equal(ga.body.status, 'finished');
        assert.equal(ga.body.version, rows[2]);
        assert.deepEqual(gb.body, ga.body);
      }
      console.log(
        `# ${GAMES} games across two processes; ${conflicts} stale reads answered 409 and re-read`,
      );
    } finally {
      await a.stop();
      await b.stop();
      dropDatabase(db);
    }
  },
);

// A conflict on purpose, not by chance: process A holds a game in memory,
// then another writer appends an input behind its back (straight into the
// store, so no notification reaches A). A's next append finds the version
// moved on: it must count the conflict, catch up from the store and answer
// from the caught-up game, never store its stale result.
test(
  'a stale process hits the version check, catches up and answers from the stored game',
  { timeout: 60000 },
  async () => {
    const db = createDatabase('conflict');
    const a = await startServer({ db });
    try {
      const players = [];
      for (let i = 0; i < 2; i++) {
        const r = await http(a.url, 'POST', '/api/v1/players', {
          body: { name: `conf_${i}_${Date.now() % 1e6}` },
        });
        players.push(r.body);
      }
      const lobby = await http(a.url, 'POST', '/api/v1/lobbies', {
        token: players[0].token,
        body: { ruleset: 'tictactoe', seats: 2 },
      });
      await http(a.url, 'POST', `/api/v1/lobbies/${lobby.body.id}/seats`, {
        token: players[1].token,
        body: {},
      });
      const start = await http(a.url, 'POST', `/api/v1/lobbies/${lobby.body.id}/start`, {
        token: players[0].token,
      });
      assert.equal(start.status, 201, start.text);
      const game = start.body.game;
      const g0 = await http(a.url, 'GET', `/api/v1/games/${game}`, { token: players[0].token });
      assert.equal(g0.body.version, 0);
      const conflicts = async () => {
        const m = await http(a.url, 'GET', '/metrics');
        const line = m.text
          .split('\n')
          .find((l) => l.startsWith('conclave_append_conflicts_total'));
        return line ? Number(line.split(' ').pop()) : 0;
      };
      const before = await conflicts();
      // Seat 0 takes the centre behind A's back.
      psql(
        db,
        `BEGIN; UPDATE games SET version = 1 WHERE game_id = '${game}' AND version = 0;
      INSERT INTO game_inputs (game_id, seq, seat, kind, window_id, payload)
      VALUES ('${game}', 1, 0, 'play', 't1', '{"cell":4}'); COMMIT;`,
      );
      // A still offers t1 to seat 0; its append of cell 0 must conflict.
      const r = await http(a.url, 'POST', `/api/v1/games/${game}/plays`, {
        token: players[0].token,
        body: { window: 't1', cell: 0 },
        headers: { 'idempotency-key': 'conflict-1' },
      });
      assert.equal(r.status, 409, r.text);
      assert.equal(await conflicts(), before + 1, 'the append met the version check');
      const rows = psql(
        db,
        `SELECT seq || ':' || payload FROM game_inputs WHERE game_id = '${game}' ORDER BY seq`,
      );
      assert.equal(rows, '1:{"cell":4}', 'the stale play was not stored');
      const g1 = await http(a.url, 'GET', `/api/v1/games/${game}`, { token: players[1].token });
      assert.equal(g1.body.version, 1);
      assert.equal(g1.body.view.board[4], 0);
      assert.equal(g1.body.view.board[0], null);
      // And the game goes on from the stored state.
      const w = g1.body.windows.find((x) => x.seats.includes(1));
      const next = await http(a.url, 'POST', `/api/v1/games/${game}/plays`, {
        token: players[1].token,
        body: { window: w.id, cell: 0 },
        headers: { 'idempotency-key': 'conflict-2' },
      });
      assert.equal(next.status, 200, next.text);
      assert.equal(next.body.version, 2);
    } finally {
      await a.stop();
      dropDatabase(db);
    }
  },
);
