// hub_delivery.test.mjs - the WebSocket hub delivers what it queued without
// waiting for anything else to happen: a burst larger than one writeable batch
// all arrives with nothing sent after it, and a lone patch on an idle server
// arrives promptly (the first message queued wakes the hub's thread). Each
// deadline is 10 s; without those wake-ups the messages did not arrive at all
// (over 90 s on an idle server).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createDatabase, dropDatabase, startServer } from './lib/server.mjs';
import { HubClient, stopClean, newPlayer, newGame, getGame, play } from './lib/ws.mjs';

// A long ping interval: the hub's own pings must not be what flushes a queue.
const ENV = { CONCLAVE_RATE: '100000', CONCLAVE_RATE_BURST: '100000', CONCLAVE_WS_PING: '120' };

let db;
let srv;
before(async () => {
  db = createDatabase('hubdelivery');
  srv = await startServer({ db, env: ENV });
});
after(async () => {
  try {
    if (srv) await stopClean(srv);
  } finally {
    if (db) dropDatabase(db);
  }
});

// One masked WebSocket text frame (RFC 6455, 5.2) for a payload under 126
// bytes; the all-zero mask leaves the payload as it is.
function frame(text) {
  const payload = Buffer.from(text);
  assert.ok(payload.length < 126);
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length, 0, 0, 0, 0]), payload]);
}

test('a burst of replies larger than one writeable batch all arrives with nothing after it', async () => {
  const c = await HubClient.connect(srv.wsUrl);
  try {
    c.send({ type: 'ping' });
    await c.next('pong');
    // 30 pings in one TCP write: the hub reads them in one go and queues 30
    // pongs (more than its 16-message batch, fewer than the 32 unread replies
    // at which it stops reading), then nothing else is sent on this socket.
    const n = 30;
    const from = c.messages.length;
    c.ws._socket.write(Buffer.concat(Array.from({ length: n }, () => frame('{"type":"ping"}'))));
    const pongs = () => c.messages.slice(from).filter((m) => m.type === 'pong').length;
    await c
      .until(() => pongs() >= n, { timeout: 10000, what: `${n} pongs` })
      .catch((e) => {
        throw new Error(`${e.message}: ${pongs()} arrived`);
      });
    assert.equal(pongs(), n);
    assert.deepEqual(c.errors, []);
  } finally {
    c.close();
  }
});

test('a lone message on an idle server (the snapshot, then each patch) reaches its one subscriber promptly', async () => {
  const a = await newPlayer(srv.url, 'lonea');
  const b = await newPlayer(srv.url, 'loneb');
  const game = await newGame(srv.url, 'tictactoe', [a, b]);
  const c = await HubClient.connect(srv.wsUrl);
  try {
    c.send({ type: 'subscribe', game });
    // The snapshot is the only message queued: it too must wake the hub.
    await c.until(() => c.version(game) !== null, { timeout: 10000, what: 'the snapshot' });
    for (let i = 0; i < 3; i++) {
      const r = await getGame(srv.url, game, null);
      await c.until(() => c.version(game) === r.version, { what: `version ${r.version}` });
      // Let the server go idle: nothing else queued for any connection.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const w = r.windows[0];
      const mover = w.seats[0] === 0 ? a : b;
      const cell = r.view.board.findIndex((v) => v === null);
      const t0 = Date.now();
      const res = await play(srv.url, game, mover.token, { window: w.id, cell });
      assert.equal(res.status, 200, res.text);
      await c.until(() => c.version(game) > r.version, {
        timeout: 10000,
        what: `the patch after version ${r.version}`,
      });
      console.log(`patch ${i} arrived ${Date.now() - t0} ms after the play was sent`);
    }
    assert.deepEqual(c.mismatches, []);
    assert.deepEqual(c.errors, []);
  } finally {
    c.close();
  }
});
