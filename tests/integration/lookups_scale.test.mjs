// lookups_scale.test.mjs - a request's lookups stay index lookups when the
// tables are big. On a database that already holds 20,000 finished games with
// a rematch each, the lobby reads (one lobby, the open list) ask whether each
// lobby is a rematch still held back by a spectator delay
// (server/lobby/lobby.c, HELD_SQL), which reads game_rematches by lobby_id:
// without an index on that column each read scanned every rematch ever made
// (sql/018_rematch_lookups.sql). The test counts scans in PostgreSQL's
// statistics (pg_stat_user_tables), not time: the reads must add index scans
// of game_rematches and no sequential scan.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { BIN, createDatabase, dropDatabase, psql, startServer, waitFor } from './lib/server.mjs';
import { NO_LIMITS, client, newLobby, newPlayer } from './lib/api.mjs';

const OLD_GAMES = 20000;
const READS = 20;

// The scans of game_rematches (seq, idx) and the sequential scans of games
// (games) so far, as PostgreSQL's statistics have them.
function scans(db) {
  const [seq, idx, games] = psql(
    db,
    `SELECT r.seq_scan, coalesce(r.idx_scan, 0), g.seq_scan
       FROM pg_stat_user_tables r, pg_stat_user_tables g
      WHERE r.relname = 'game_rematches' AND g.relname = 'games'`,
  )
    .split('|')
    .map(Number);
  return { seq, idx, games };
}

test(
  'lobby reads find rematches through an index on a big history',
  { timeout: 120000 },
  async () => {
    const db = createDatabase('lookups');
    let server;
    try {
      execFileSync(BIN, ['migrate'], { env: { ...process.env, DATABASE_URL: db }, stdio: 'pipe' });
      // A history: finished games (one in ten with a spectator delay), each
      // with its last input and a rematch made a month ago (the hub's sweep of
      // recent rematches, lobby_released, then has nothing to read).
      psql(
        db,
        `INSERT INTO players (id, name) VALUES ('old-host', 'old-host');
       INSERT INTO games (game_id, ruleset, seat_count, seed, seed_sha256, status, version,
                          delay_seconds)
         SELECT 'old-' || i, 'tictactoe', 2, '\\x00', 'x', 'finished', 1,
                CASE WHEN i % 10 = 0 THEN 60 ELSE 0 END
           FROM generate_series(1, ${OLD_GAMES}) i;
       INSERT INTO game_inputs (game_id, seq, kind)
         SELECT 'old-' || i, 1, 'play' FROM generate_series(1, ${OLD_GAMES}) i;
       INSERT INTO game_rematches (game_id, lobby_id, made_at)
         SELECT 'old-' || i, 'old-lobby-' || i, now() - interval '30 days'
           FROM generate_series(1, ${OLD_GAMES}) i;
       ANALYZE;`,
      );
      server = await startServer({ db, env: NO_LIMITS });
      const call = client(server.url);
      const [alice, bob] = [await newPlayer(call), await newPlayer(call)];
      const lobby = await newLobby(call, alice, { ruleset: 'tictactoe', seats: 2 }, []);
      // Statistics reach the view when each backend flushes them (about a
      // second after its transaction, at most PostgreSQL's idle interval):
      // wait until the counts stop moving before taking the baseline.
      let before = scans(db);
      await waitFor(
        () => {
          const now = scans(db);
          const still =
            now.seq === before.seq && now.idx === before.idx && now.games === before.games;
          before = now;
          return still;
        },
        { timeout: 60000, interval: 1500, what: 'the statistics settled' },
      );
      for (let i = 0; i < READS; i++) {
        const r = await call('GET', `/api/v1/lobbies/${lobby.id}`, { token: bob.token });
        assert.equal(r.status, 200, r.text);
      }
      const list = await call('GET', '/api/v1/lobbies', { token: bob.token });
      assert.equal(list.status, 200, list.text);
      let after = before;
      await waitFor(
        () => {
          after = scans(db);
          return after.idx - before.idx >= READS;
        },
        { timeout: 60000, interval: 500, what: `${READS} index scans of game_rematches` },
      );
      console.log(
        `# scans during the reads: ${JSON.stringify({ seq: after.seq - before.seq, idx: after.idx - before.idx, games: after.games - before.games })}`,
      );
      assert.equal(
        after.seq - before.seq,
        0,
        `the lobby reads scanned all ${OLD_GAMES} rematches ${after.seq - before.seq} times`,
      );
      assert.equal(
        after.games - before.games,
        0,
        `the lobby reads scanned all ${OLD_GAMES} games ${after.games - before.games} times`,
      );
    } finally {
      if (server) await server.stop();
      dropDatabase(db);
    }
  },
);
