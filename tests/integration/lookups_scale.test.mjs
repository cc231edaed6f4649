// lookups_scale.test.mjs - a request's lookups stay index lookups when the
// tables are big. On a database that already holds 20,000 finished games with
// a rematch each, the lobby reads (one lobby, the open list) ask whether each
// lobby is a rematch still held back by a spectator delay
// (server/lobby/lobby.c, HELD_SQL), which reads game_rematches by lobby_id:
// without an index on that column each read scanned every rematch ever made
// (sql/018_rematch_lookups.sql). The test counts scans in PostgreSQL's
// statistics (pg_stat_user_tables), not time: the reads must add index scans
// of game_rematches and no sequential scan. Likewise a game's start counts
// the host's running games (server/lobby/lobby_change.c, GAME_QUOTA_COUNT)
// through the running seats alone (sql/019_running_seats.sql): a host with
// 2,000 finished games does not make the start read 2,000 games.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { BIN, createDatabase, dropDatabase, psql, startServer, waitFor } from './lib/server.mjs';
import { NO_LIMITS, client, newGame, newLobby, newPlayer } from './lib/api.mjs';

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

// The games inserted and the rows of games read (by index or by scan) so
// far, as PostgreSQL's statistics have them.
function counts(db) {
  const [games, probes] = psql(
    db,
    `SELECT n_tup_ins, coalesce(idx_tup_fetch, 0) + seq_tup_read FROM pg_stat_user_tables WHERE relname = 'games'`,
  )
    .split('|')
    .map(Number);
  return { games, probes };
}

test(
  "a game's start counts the host's running games only, whatever their history",
  { timeout: 120000 },
  async () => {
    const db = createDatabase('quotascale');
    let server;
    try {
      server = await startServer({ db, env: NO_LIMITS });
      const call = client(server.url);
      const [fresh, veteran, other] = [
        await newPlayer(call),
        await newPlayer(call),
        await newPlayer(call),
      ];
      // The veteran's history: finished games, their seats no longer
      // running, as the batch that ended each one leaves them.
      psql(
        db,
        `INSERT INTO games (game_id, ruleset, seat_count, seed, seed_sha256, status, version)
           SELECT 'vet-' || i, 'tictactoe', 2, '\\x00', 'x', 'finished', 5
             FROM generate_series(1, ${OLD_GAMES / 10}) i;
         INSERT INTO game_seats (game_id, seat, player_id, running)
           SELECT 'vet-' || i, 0, '${veteran.id}', false FROM generate_series(1, ${OLD_GAMES / 10}) i;
         ANALYZE;`,
      );
      // A backend flushes its statistics some seconds after its
      // transaction, all at once: the start's count is in once the game it
      // inserted (in the same transaction) is.
      const cost = {};
      let before = counts(db);
      await waitFor(
        () => {
          const now = counts(db);
          const still = now.games === before.games && now.probes === before.probes;
          before = now;
          return still;
        },
        { timeout: 60000, interval: 2000, what: 'the statistics settled' },
      );
      for (const [who, host] of [
        ['fresh', fresh],
        ['veteran', veteran],
      ]) {
        await newGame(call, 'tictactoe', [host, other]);
        let after = before;
        await waitFor(
          () => {
            after = counts(db);
            return after.games > before.games;
          },
          { timeout: 60000, interval: 500, what: `the statistics of the ${who} host's start` },
        );
        cost[who] = after.probes - before.probes;
        before = after;
      }
      console.log(`# rows of games read during a start: ${JSON.stringify(cost)}`);
      // The count read a game's row for each seat the host ever held (or
      // scanned them all); now one per running seat. What else runs
      // meanwhile (the start itself, the server's sweeps) reads a few rows,
      // far fewer than the history's 2,000.
      assert.ok(
        cost.veteran < OLD_GAMES / 40,
        `a start by a host with ${OLD_GAMES / 10} finished games read ${cost.veteran} rows of games (a new host's: ${cost.fresh})`,
      );
    } finally {
      if (server) await server.stop();
      dropDatabase(db);
    }
  },
);
