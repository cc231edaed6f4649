// drain.test.mjs - a server stopped with SIGTERM drains (docs/scaling.md):
// for CONCLAVE_DRAIN_SECONDS /readyz answers 503 while every other request
// is still served (a load balancer's health check moves new traffic to
// other processes), then in-flight work finishes, WebSocket clients are
// closed with 1012 ("service restart") after the messages already queued
// for them, and the process exits 0. A second server on the same database
// then serves the game from the version the client held.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDatabase, dropDatabase, startServer, http, sleep } from './lib/server.mjs';
import { HubClient, newPlayer, newGame, getGame, play, stopClean } from './lib/ws.mjs';

test(
  'SIGTERM: readyz 503 while draining, WebSocket closed with 1012, no input lost',
  { timeout: 60000 },
  async () => {
    const db = createDatabase('drain');
    let a = await startServer({ db, env: { CONCLAVE_DRAIN_SECONDS: '2' } });
    let b;
    try {
      const p = [await newPlayer(a.url, 'dr'), await newPlayer(a.url, 'dr')];
      const game = await newGame(a.url, 'tictactoe', p);
      assert.equal((await http(a.url, 'GET', '/readyz')).status, 200);

      const c = await HubClient.connect(a.wsUrl);
      c.send({ type: 'auth', token: p[0].token });
      c.send({ type: 'subscribe', game });
      await c.until(() => c.version(game) !== null, { what: 'the snapshot' });

      const w = (await getGame(a.url, game, p[0].token)).windows[0];
      assert.equal((await play(a.url, game, p[0].token, { window: w.id, cell: 4 })).status, 200);
      await c.until(() => c.version(game) === 1, { what: 'version 1 over the socket' });

      const exited = a.stop('SIGTERM');
      await sleep(500);
      const ready = await http(a.url, 'GET', '/readyz');
      assert.equal(ready.status, 503, 'readyz says 503 while draining');
      assert.match(ready.body.detail, /shutting down/);
      // Everything else is still served while draining.
      const g = await getGame(a.url, game, p[1].token);
      const w2 = g.windows.find((x) => x.seats.includes(1));
      const r = await play(a.url, game, p[1].token, { window: w2.id, cell: 0 });
      assert.equal(r.status, 200, 'a play during the drain is accepted');
      await c.until(() => c.version(game) === 2, { what: 'version 2 before the close' });
      assert.equal(c.closed, null, 'the socket stays open during the drain period');

      const closed = await c.waitClosed({ timeout: 10000 });
      assert.equal(closed.code, 1012, `close code ${closed.code} ${closed.reason}`);
      assert.match(closed.reason, /reconnect/);
      const { code } = await exited;
      assert.equal(code, 0, 'exit 0 after the drain');
      assert.ok(
        a.lines.some((l) => l.includes('"draining"')),
        'the drain is logged',
      );
      a = null;

      // Another process serves the game, from the version the client held.
      b = await startServer({ db });
      const again = await HubClient.connect(b.wsUrl);
      again.games.set(game, structuredClone(c.games.get(game))); // what the client held
      again.send({ type: 'auth', token: p[0].token });
      again.send({ type: 'subscribe', game, version: 2 });
      const g2 = await getGame(b.url, game, p[0].token);
      assert.equal(g2.version, 2, 'both acknowledged plays are stored');
      const w3 = g2.windows.find((x) => x.seats.includes(0));
      assert.equal((await play(b.url, game, p[0].token, { window: w3.id, cell: 8 })).status, 200);
      await again.until(() => again.version(game) === 3, {
        what: 'the resumed feed to reach version 3',
      });
      assert.equal(again.mismatches.length, 0, 'no gap in the resumed feed');
      again.close();
    } finally {
      if (a) await a.stop();
      if (b) await stopClean(b);
      dropDatabase(db);
    }
  },
);
