// schema_rules.test.mjs - the schema stays distributable by game_id
// (docs/scaling.md). After every migration, each table is either a game
// table (it grows with games: sharded by game_id in a distributed
// PostgreSQL such as Citus) or a table of players and lobbies (a reference
// table or a table keyed on its own). For game tables:
//   - the table has a game_id column, and its primary key and every unique
//     index include it (a distributed table can only enforce uniqueness
//     within one shard);
//   - a foreign key to another game table includes game_id on both sides
//     (the two rows then live on the same shard).
// For the others: no foreign key points into a game table (a reference
// table cannot refer to a sharded one). A new table must be put in one of
// the two lists below, with a reason, so nobody breaks the rules by accident.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { BIN, createDatabase, dropDatabase, psql, startServer } from './lib/server.mjs';
import { NO_LIMITS, client, newLobby, newPlayer } from './lib/api.mjs';

// Tables that grow with games: distributed by game_id.
const GAME_TABLES = new Set([
  'games',
  'game_seats',
  'game_inputs',
  'game_snapshots',
  'deadlines',
  'chat_channels',
  'chat_messages',
  'chat_reads',
  'notify_facts', // the outbox: facts written with the commit
  'notify_told',
  'notify_deliveries', // a digest's rows carry game_id ''
  'turns_waiting', // the inbox
  'seat_windows', // answer and miss history (reputation)
  'game_events', // seats replaced by bots
  'game_rematches', // the rematch lobby of a finished game
  'seat_presence', // seats with their game open, per process (expiring)
  'reputation_pending', // delayed games over whose windows count later
]);

// Game tables every move writes, in the group commit's batch statement:
// no trigger, no foreign key (sql/015_batch_commit.sql).
const HOT_TABLES = new Set(['game_inputs', 'turns_waiting', 'deadlines', 'seat_windows']);

// Tables of players, sessions, lobbies and bookkeeping: small, or keyed by
// player; reference tables (or distributed on their own key) in Citus.
const OTHER_TABLES = new Set([
  'schema_migrations', // one row per migration
  'players', // one row per account
  'tokens', // sessions, keyed by token hash, per player
  'signin_links', // one-time sign-in links, keyed by token hash, per player
  'lobbies', // one per lobby; closed lobbies can be archived
  'lobby_seats', // keyed by lobby
  'player_records', // per player and ruleset
  'record_backfills', // one row per ruleset
  'notify_settings', // per player
  'notify_webhooks', // per player
  'vacations', // per player
  'vacation_days', // per player and year
  'reputation_counts', // per player and response-time bucket (reputation)
]);

function rows(url, sql) {
  const out = psql(url, sql);
  return out === '' ? [] : out.split('\n').map((line) => line.split('|'));
}

test(
  'every table is distributable by game_id or is a player/lobby table',
  { timeout: 60000 },
  () => {
    const db = createDatabase('schema');
    try {
      execFileSync(BIN, ['migrate'], { env: { ...process.env, DATABASE_URL: db }, stdio: 'pipe' });
      const tables = rows(
        db,
        `SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
      ).map((r) => r[0]);
      assert.ok(tables.includes('game_inputs'), `migrations ran: ${tables}`);
      for (const t of tables) {
        assert.ok(
          GAME_TABLES.has(t) || OTHER_TABLES.has(t),
          `table ${t} is new: put it in GAME_TABLES (it grows with games; key it by game_id) ` +
            `or OTHER_TABLES in tests/integration/schema_rules.test.mjs, and in docs/scaling.md`,
        );
      }
      for (const t of GAME_TABLES) assert.ok(tables.includes(t), `game table ${t} exists`);

      // Primary keys and unique indexes of game tables include game_id.
      const uniques = rows(
        db,
        `SELECT c.relname, i.relname, ix.indisprimary,
              EXISTS (SELECT 1 FROM unnest(ix.indkey) k
                        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k
                       WHERE a.attname = 'game_id')
         FROM pg_index ix
         JOIN pg_class c ON c.oid = ix.indrelid
         JOIN pg_class i ON i.oid = ix.indexrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND ix.indisunique`,
      );
      for (const t of GAME_TABLES) {
        const cols = rows(
          db,
          `SELECT column_name FROM information_schema.columns WHERE table_name = '${t}'`,
        ).map((r) => r[0]);
        assert.ok(cols.includes('game_id'), `game table ${t} has a game_id column`);
        const own = uniques.filter((u) => u[0] === t);
        assert.ok(
          own.some((u) => u[2] === 't'),
          `game table ${t} has a primary key`,
        );
        for (const [, index, , hasGame] of own) {
          assert.equal(hasGame, 't', `unique index ${index} of game table ${t} includes game_id`);
        }
      }

      // Foreign keys: between game tables through game_id; never from a
      // player/lobby table into a game table.
      const fks = rows(
        db,
        `SELECT src.relname, dst.relname, con.conname,
              EXISTS (SELECT 1 FROM unnest(con.conkey) k JOIN pg_attribute a
                        ON a.attrelid = con.conrelid AND a.attnum = k WHERE a.attname = 'game_id'),
              EXISTS (SELECT 1 FROM unnest(con.confkey) k JOIN pg_attribute a
                        ON a.attrelid = con.confrelid AND a.attnum = k WHERE a.attname = 'game_id')
         FROM pg_constraint con
         JOIN pg_class src ON src.oid = con.conrelid
         JOIN pg_class dst ON dst.oid = con.confrelid
        WHERE con.contype = 'f'`,
      );
      assert.ok(fks.length > 0, 'the schema has foreign keys to check');
      for (const [src, dst, name, srcGame, dstGame] of fks) {
        if (GAME_TABLES.has(dst)) {
          assert.ok(
            GAME_TABLES.has(src),
            `${name}: ${src} (not a game table) refers to game table ${dst}`,
          );
          assert.ok(
            srcGame === 't' && dstGame === 't',
            `${name}: ${src} -> ${dst} goes through game_id`,
          );
        }
      }

      // The tables every move writes (the group commit's batch statement,
      // server/store/store.c) run nothing per row but the row itself: no
      // trigger and no foreign-key check (sql/015_batch_commit.sql). The
      // batch writes their rows only for games whose version it moved, so
      // the game exists: the last test below keeps that true.
      for (const t of HOT_TABLES) {
        const out = fks.filter(([src]) => src === t).map(([, , name]) => name);
        assert.deepEqual(out, [], `hot table ${t} has no foreign key`);
      }
      const triggers = rows(
        db,
        `SELECT c.relname, t.tgname, (t.tgtype & 16) <> 0
         FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
        WHERE NOT t.tgisinternal`,
      );
      assert.ok(triggers.length > 0, 'the schema has triggers to check');
      for (const [table, name, onUpdate] of triggers) {
        assert.ok(!HOT_TABLES.has(table), `hot table ${table} has no trigger (${name})`);
        assert.ok(
          !(table === 'games' && onUpdate === 't'),
          `a move's version update fires no trigger (${name} on games)`,
        );
      }
    } finally {
      dropDatabase(db);
    }
  },
);

// Without foreign keys on the hot tables, no row of theirs may name a game
// that does not exist: the batch statement writes them only for the games
// whose version it moved. Played through the real server, with a clock so
// that deadlines are written too.
test('rows the moves write name an existing game', { timeout: 120000 }, async () => {
  const db = createDatabase('schema_play');
  const server = await startServer({ db, env: NO_LIMITS });
  try {
    const call = client(server.url);
    const [alice, bob] = [await newPlayer(call), await newPlayer(call)];
    const lobby = await newLobby(
      call,
      alice,
      { ruleset: 'tictactoe', seats: 2, clock: { mode: 'live', seconds: 600 } },
      [bob],
    );
    const s = await call('POST', `/api/v1/lobbies/${lobby.id}/start`, { token: alice.token });
    assert.equal(s.status, 201, s.text);
    const id = s.body.game;
    // Alice takes the top row.
    const moves = [
      [alice, 0],
      [bob, 3],
      [alice, 1],
      [bob, 4],
    ];
    for (const [i, [who, cell]] of moves.entries()) {
      const r = await call('POST', `/api/v1/games/${id}/plays`, {
        token: who.token,
        body: { window: `t${i + 1}`, cell },
      });
      assert.equal(r.status, 200, r.text);
    }
    assert.equal(psql(db, `SELECT count(*) FROM game_inputs WHERE game_id = '${id}'`), '4');
    assert.equal(psql(db, `SELECT version FROM games WHERE game_id = '${id}'`), '4');
    assert.equal(
      psql(db, `SELECT window_id || ':' || seat FROM turns_waiting WHERE game_id = '${id}'`),
      't5:0',
      'the game waits on Alice',
    );
    assert.equal(
      psql(db, `SELECT window_id FROM deadlines WHERE game_id = '${id}'`),
      't5',
      'the open window has its deadline',
    );
    for (const t of HOT_TABLES) {
      assert.equal(
        psql(
          db,
          `SELECT count(*) FROM ${t} x WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.game_id = x.game_id)`,
        ),
        '0',
        `every ${t} row names an existing game`,
      );
    }
    assert.notEqual(
      psql(db, `SELECT count(*) FROM seat_windows WHERE game_id = '${id}'`),
      '0',
      'the answered windows were recorded',
    );
    assert.equal(
      psql(
        db,
        'SELECT count(*) FROM seat_windows w WHERE NOT EXISTS (SELECT 1 FROM players p WHERE p.id = w.player_id)',
      ),
      '0',
      'every seat_windows row names an existing player',
    );
  } finally {
    await server.stop();
    dropDatabase(db);
  }
});
