// version_sweep.test.mjs - a process that dies between its commit and its
// NOTIFY must not leave other processes' spectators behind until the game's
// next input (docs/scaling.md, "Who runs a game"). The test commits an
// input to the store the way a process does, but sends no NOTIFY (as if
// the process had died in between); a spectator on another process still
// gets the new version, from the listener's version sweep.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDatabase, dropDatabase, startServer, psql } from './lib/server.mjs';
import { HubClient, newPlayer, newGame, getGame, play, stopClean } from './lib/ws.mjs';

test(
  'an input committed without NOTIFY reaches spectators on another process',
  { timeout: 60000 },
  async () => {
    const db = createDatabase('sweep');
    const a = await startServer({ db });
    const b = await startServer({ db });
    try {
      const p = [await newPlayer(a.url, 'sw'), await newPlayer(a.url, 'sw')];
      const game = await newGame(a.url, 'tictactoe', p);
      const watcher = await HubClient.connect(b.wsUrl);
      watcher.send({ type: 'subscribe', game });
      await watcher.until(() => watcher.version(game) === 0, { what: 'the snapshot on process B' });

      // Move 1 through process A: NOTIFY reaches B.
      const w1 = (await getGame(a.url, game, p[0].token)).windows[0];
      assert.equal((await play(a.url, game, p[0].token, { window: w1.id, cell: 4 })).status, 200);
      await watcher.until(() => watcher.version(game) === 1, { what: 'version 1 on process B' });

      // Move 2 committed as a process would, without the NOTIFY.
      const w2 = (await getGame(a.url, game, p[1].token)).windows[0];
      const [seat, kind, payload] = psql(
        db,
        `SELECT seat, kind, payload FROM game_inputs WHERE game_id = '${game}' AND seq = 1`,
      ).split('|');
      assert.equal(kind, 'play');
      assert.equal(seat, '0');
      const next = payload.replace('"cell":4', '"cell":0');
      assert.notEqual(next, payload, `payload ${payload} names the cell`);
      psql(
        db,
        `BEGIN;
       INSERT INTO game_inputs (game_id, seq, seat, kind, window_id, payload)
            VALUES ('${game}', 2, 1, 'play', '${w2.id}', '${next}');
       UPDATE games SET version = 2 WHERE game_id = '${game}';
       COMMIT;`,
      );
      const t0 = Date.now();
      await watcher.until(() => watcher.version(game) === 2, {
        timeout: 10000,
        what: 'version 2 on process B without a NOTIFY',
      });
      const waited = Date.now() - t0;
      assert.equal(
        watcher.doc(game).view.board[0],
        1,
        'the swept input (seat 1 in cell 0) is applied',
      );
      assert.equal(watcher.mismatches.length, 0);
      console.log(
        `# version sweep: spectator caught up ${waited} ms after a commit without NOTIFY`,
      );
      watcher.close();
    } finally {
      await stopClean(a);
      await stopClean(b);
      dropDatabase(db);
    }
  },
);
