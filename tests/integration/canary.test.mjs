// canary.test.mjs - hidden-information canaries (docs/reliability.md).
//
// Random games of every ruleset (tic-tac-toe, rock-paper-scissors, Galactic
// Sprint solitaire and 3-4 seats, Skirmish, Starbase, Galactic Council; bots
// and humans, private lobbies) are
// played through the real server while everything any audience receives is
// captured: REST answers (game, view, legal, log, export, errors and their
// headers) for every seat, a spectator with a token and an anonymous caller;
// every WebSocket frame (snapshots, patches, errors, the lobby feed); every
// NOTIFY payload on conclave_games and conclave_lobbies (a psql LISTEN);
// every notification (each player has a verified email address and a
// webhook: every mail and webhook body, to a local SMTP sink and receiver);
// and every server log line (at debug level). Then each captured byte is held
// against what its audience is entitled to:
//
//   - player tokens (and their SHA-256): only in answers to that player;
//     passwords: never sent back at all;
//   - a game's seed (hex, base64, base64url; it is also the RNG key): only
//     in the game resource and the export once the game is over; and no
//     64-hex string leaves that is not a published hash (seed_sha256,
//     receipt, final_hash) or such a seed;
//   - rps order notes (unique markers): the author always; everyone else
//     only from the version that locked the window (the log: once it holds
//     that window's reveal), and never for an order that was replaced,
//     withdrawn or refused; error bodies, the lobby feed, NOTIFY payloads
//     and log lines never carry one;
//   - invite codes and private lobby ids: members only;
//   - Galactic Sprint hands and payments, tracked by card id: in any view,
//     game resource, legal answer, snapshot or patch an audience receives at
//     version v, every card id must be in an empire at v (public) or in that
//     seat's own hand at v; "pay"/"discard"/"hand" lists appear only in a
//     seat's own pending orders, hand and legal shapes; public log entries
//     name only cards in empires and no payments; private entries reach
//     their seat only; the card catalogue of a view names only designs it
//     references. An error oracle checks that naming a card in another
//     seat's hand gets the same refusal as naming one in the deck;
//   - Skirmish (humans from their legal answers, sealed muster and
//     deployment): no squad in any document before the muster window
//     locked, no unit on a square before the deployment locked;
//   - Starbase: every card object (id, key, price) a document shows at
//     version v is public at v or in the audience's own hand at v (so
//     neither another hand nor a market's order), legal card ids likewise,
//     hands and markets of players only as counts, public log entries name
//     only cards that were public;
//   - Galactic Council: order part names (unique markers) reach their
//     author only; a marker identity reaches a spectator only once face up
//     (a public "marker" log entry) and a seat only then or once its own
//     private "inspected" entry names it; explored sectors agree across
//     audiences and an unexplored one shows nothing; spectators see no
//     units and no "you"; a seat sees a sector live only within its sensor
//     range;
//   - for those three: private log entries reach their seats only and no
//     spectator document carries held orders;
//   - table talk (every game with two seats or more): a private channel's
//     messages (unique markers) reach its member seats only, over REST and
//     the WebSocket, and in the private-message notifications (mail and
//     webhook) of its other members; public messages reach every audience
//     of their game (over REST and the WebSocket: they notify no one);
//     text the server refused (too long, a non-member's post) reaches no
//     one; none of them is ever in an error body, a NOTIFY payload (those
//     on conclave_chat are ids: "game:channel:seq") or a log line.
//   - notifications (mail and webhook bodies) are held to the same rules as
//     what their player receives on the page at that version: the document
//     a webhook carries goes through every check above as that seat's, and
//     no token, password, seed or hidden marker is in any of them.
//
// The export of a finished game is the one place where everything is
// revealed: replaying needs the seed and every input (payments included).
//
// Positive controls (markers seen where they are allowed) show the scanner
// works on real traffic, and a self-test feeds the checker planted leaks.
// CANARY_SEED=<n> replays the test's own random choices.
//
// What is particular to a ruleset (its games, their driver, its checks) is
// in its own file, canary/RULESET.mjs, listed in canary/registry.mjs.
//
// The games run in two files side by side, each on its own server and
// database (so that neither file takes minutes on a loaded machine): this
// one plays every ruleset but Starbase and Galactic Council (a new ruleset
// lands here), canary_starbase_council.test.mjs those two (its games are the
// longest); registry.mjs (playedBy) holds the groups. The machinery both
// share, and the hidden-facts test itself, are in canary/suite.mjs; the
// checker's self-tests and the seat-set test are here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDatabase, dropDatabase, startServer, psql, sleep } from './lib/server.mjs';
import { hex } from './canary/kit.mjs';
import { cardIds } from './canary/sprint.mjs';
import { checkSkirmish } from './canary/skirmish.mjs';
import { checkStarbase } from './canary/starbase.mjs';
import { checkCouncil } from './canary/council.mjs';
import {
  WS_UNLIMITED,
  now,
  Capture,
  audience,
  Markers,
  sha256hex,
  World,
  scanMarkers,
  checkNotify,
  hiddenFactsTest,
} from './canary/suite.mjs';

// ---------------------------------------------------------------- tests --

test('the checker finds planted leaks (self-test)', () => {
  const cap = new Capture();
  const markers = new Markers();
  const alice = { id: 'a', token: 'T'.repeat(43) };
  const A = audience('alice', alice);
  const B = audience('bob', { id: 'b', token: 'U'.repeat(43) });
  A.seats.set('g', 0);
  B.seats.set('g', 1);
  markers.add({ kind: 'token', value: alice.token, player: alice });
  const seed = 'ab'.repeat(32);
  markers.add({ kind: 'seed', value: seed, game: 'g' });
  const note = markers.add({
    kind: 'note',
    value: 'CNRYself1',
    game: 'g',
    seat: 0,
    window: 'r1',
    revealed: true,
    lock: 5,
  });
  const hidden = markers.add({
    kind: 'note',
    value: 'CNRYself2',
    game: 'g',
    seat: 0,
    window: 'r1',
    revealed: false,
    lock: 5,
  });
  void note;
  void hidden;
  const rec = (aud, kind, version, text, json = null, extra = {}) =>
    cap.add({
      src: 'rest',
      aud,
      kind,
      game: 'g',
      version,
      status: 200,
      text,
      json,
      method: 'GET',
      path: '/x',
      ...extra,
    });
  // allowed
  rec(A, 'view', 3, 'CNRYself1 CNRYself2');
  rec(B, 'view', 5, 'CNRYself1');
  rec(A, 'other', null, alice.token);
  rec(B, 'game', 9, seed, { status: 'finished' });
  // leaks
  rec(B, 'view', 4, 'CNRYself1'); // before the lock
  rec(B, 'view', 9, 'CNRYself2'); // a replaced note, after the lock
  rec(B, 'error', null, 'CNRYself1', null, { status: 409 });
  rec(B, 'other', null, alice.token); // someone else's token
  rec(B, 'game', 9, seed, { status: 'running' }); // the seed while running
  rec(B, 'view', 9, 'cd'.repeat(32)); // an unexplained hex string
  cap.add({ src: 'serverlog', aud: null, kind: 'line', game: null, text: sha256hex(alice.token) });
  markers.add({ kind: 'tokenhash', value: sha256hex(alice.token) });
  // Table talk: a private message of seat 0 and seat 2 (bob, seat 1, is
  // outside), a public one.
  markers.add({ kind: 'chat', value: 'CNRYchatp', game: 'g', seats: new Set([0, 2]) });
  markers.add({ kind: 'chat', value: 'CNRYchatq', game: 'g', seats: null });
  rec(A, 'chat', null, 'CNRYchatp CNRYchatq'); // allowed
  rec(B, 'chat', null, 'CNRYchatq'); // allowed
  cap.add({
    src: 'ws',
    aud: B,
    kind: 'ws-other',
    game: 'g',
    text: '{"type":"chat","text":"CNRYchatp"}',
  }); // leak
  rec(A, 'error', null, 'CNRYchatp', null, { status: 413 }); // leak: echoed in an error
  cap.add({ src: 'serverlog', aud: null, kind: 'line', game: null, text: 'CNRYchatq' }); // leak
  // Private-message notifications: to a member (allowed), to a non-member
  // (leak); a public message is never in a notification (leak).
  cap.add({ src: 'mail', aud: A, kind: 'mail', game: 'g', version: 3, text: 'From x: CNRYchatp' }); // allowed
  cap.add({
    src: 'hook',
    aud: B,
    kind: 'hook',
    game: 'g',
    version: 3,
    text: '{"text":"CNRYchatp"}',
  }); // leak
  cap.add({ src: 'mail', aud: A, kind: 'mail', game: 'g', version: 3, text: 'From x: CNRYchatq' }); // leak
  const { leaks, allowedSeen } = scanMarkers(cap.records, markers, new Set());
  assert.equal(leaks.length, 12, JSON.stringify(leaks, null, 1));
  assert.equal(allowedSeen.get('note'), 3);
  assert.equal(allowedSeen.get('chat'), 4);
  // Sprint: a hand card of seat 1 in seat 0's view; a pay list in public.
  const ids = cardIds({
    view: {
      hand: [{ id: 3, card: 'x' }],
      players: [{ empire: [{ id: 7, card: 'y' }] }],
      my_orders: { w: { pay: [3] } },
    },
  });
  assert.deepEqual(
    ids
      .filter((x) => x.id !== undefined)
      .map((x) => x.id)
      .sort(),
    [3, 3, 7],
  );
  assert.ok(ids.some((x) => x.whole && x.list === 'pay'));
  const n = checkNotify(
    [
      { src: 'notify', kind: 'conclave_games', text: 'g:3' },
      { src: 'notify', kind: 'conclave_games', text: 'g:3 CNRYx' },
      { src: 'notify', kind: 'conclave_chat', text: 'g:1:4' },
      { src: 'notify', kind: 'conclave_chat', text: 'g:1:4:hello' },
    ],
    new Set(['g']),
  );
  assert.equal(n.length, 2);
});

test('the Skirmish, Starbase and Council checks find planted leaks (self-test)', () => {
  const A = audience('seat 0', { id: 'a' });
  const B = audience('seat 1', { id: 'b' });
  const S = audience('spectator', { id: 's' });
  const N = audience('anonymous');
  A.seats.set('g', 0);
  B.seats.set('g', 1);
  const fake = (ruleset, docs, extra = {}) => {
    const taps = new Map();
    for (const a of [A, B, S, N])
      taps.set(a, {
        games: new Map([
          [
            'g',
            { hist: new Map(Object.entries(docs.get(a) || {}).map(([v, d]) => [Number(v), d])) },
          ],
        ]),
      });
    return {
      id: 'g',
      ruleset,
      taps,
      auds: [A, B, S, N],
      anon: N,
      spectator: S,
      seatAud: new Map([
        [0, A],
        [1, B],
      ]),
      W: { cap: { records: [] } },
      lockVersion: new Map(),
      logs: new Map(),
      ...extra,
    };
  };
  const found = (ctx, f) => {
    const leaks = [];
    f(ctx, (what) => leaks.push(what));
    return leaks;
  };
  // Skirmish: a unit before the muster locked (2), a square before the
  // deployment locked (4); a square after it is fine.
  const unit = (square) => ({ view: { units: [{ key: 'x', square }], squads: [] } });
  const sk = fake(
    'skirmish',
    new Map([
      [B, { 1: unit(null), 3: unit('c4'), 5: unit('c4') }],
      [N, { 0: { view: { units: [], squads: [] } } }],
    ]),
    {
      lockVersion: new Map([
        ['muster', 2],
        ['deploy', 4],
      ]),
    },
  );
  assert.equal(found(sk, checkSkirmish).length, 2);
  // Starbase: card 3 is seat 0's; seat 1 shows it, so does the spectator.
  const card = (id) => ({ id, key: 'k', price: 1 });
  const pub = {
    view: {
      players: [
        { seat: 0, hand: 1, market: 20, dock: [card(7)] },
        { seat: 1, hand: 1, market: 20 },
      ],
    },
  };
  const sb = fake(
    'starbase',
    new Map([
      [
        N,
        {
          1: pub,
          2: {
            view: { ...pub.view, regions: [{ ships: [{ ...card(8), owner: 0, kind: 'ship' }] }] },
          },
        },
      ],
      [S, { 1: { view: { ...pub.view, regions: [{ ships: [card(3)] }] } } }],
      [A, { 1: { view: { ...pub.view, hand: [card(3)] } } }],
      [B, { 1: { view: { ...pub.view, hand: [card(3)] } } }],
    ]),
  );
  // card 3 in two hands, the spectator's card 3, card 7 public at the
  // first version (not an outer region), card 8 of seat 0 public at
  // version 2 straight from its market
  const sl = found(sb, checkStarbase);
  assert.equal(sl.length, 4, sl.join('\n'));
  // Council: raiders at (1,0) face up, relics at (0,1) planet 0 inspected
  // by seat 0; seat 1 and the spectator show the relics; seat 1 sees an
  // unexplored sector's tile.
  const sector = (extra) => ({
    q: 0,
    r: 1,
    explored: true,
    marker: { key: 'raiders' },
    planets: [{ owner: null, marker: { key: 'relics' } }],
    ...extra,
  });
  const view = (s, seat) => ({
    view: { galaxy: { sectors: s }, players: [], ...(seat === undefined ? {} : { you: { seat } }) },
  });
  const raiders = { q: 1, r: 0, explored: true, marker: { key: 'raiders' }, planets: [] };
  const cn = fake(
    'council',
    new Map([
      [
        N,
        {
          1: view([
            { ...raiders },
            { q: 0, r: 1, explored: true, marker: 'hidden', planets: [{ marker: 'hidden' }] },
            { q: 2, r: 0, explored: false },
          ]),
        },
      ],
      [
        S,
        {
          1: view([{ ...raiders }, sector({ marker: 'hidden' }), { q: 2, r: 0, explored: false }]),
        },
      ],
      [
        A,
        {
          1: view(
            [
              { ...raiders, fleets: [], planets: [{ owner: 0, marker: null }] },
              sector({ marker: 'hidden', fleets: [] }),
              { q: 2, r: 0, explored: false },
            ],
            0,
          ),
        },
      ],
      [
        B,
        {
          1: view(
            [
              { ...raiders, fleets: [], planets: [{ owner: 1, marker: null }] },
              sector({ marker: 'hidden', fleets: [] }),
              { q: 2, r: 0, explored: false, tile: 't' },
            ],
            1,
          ),
        },
      ],
    ]),
  );
  const entry = (seat, type, q, r, planet, marker) => ({
    seq: 1,
    seat,
    entry: { type, sector: [q, r], planet, marker },
  });
  cn.logs = new Map([
    [S, [entry(null, 'marker', 1, 0, -1, 'raiders')]],
    [A, [entry(null, 'marker', 1, 0, -1, 'raiders'), entry(0, 'inspected', 0, 1, 0, 'relics')]],
    [B, [entry(null, 'marker', 1, 0, -1, 'raiders'), entry(null, 'inspected', 0, 1, 0, 'relics')]],
  ]);
  const cl = found(cn, checkCouncil);
  // the public "inspected" entry, the spectator's relics, seat 1's relics,
  // seat 1's unexplored tile
  assert.equal(cl.length, 4, cl.join('\n'));
});

// The games of every ruleset but Starbase and Council (those are
// canary_starbase_council.test.mjs's).
hiddenFactsTest('rest');

// ------------------------------------------ seat sets and the delay --
//
// Seat-set audiences and the spectator delay, played through the real
// server on the example ruleset "signals" (engine/examples/signals.c: a play
// sends a text to a set of seats, logged for exactly that set; offered
// only by a server started with CONCLAVE_EXAMPLE_RULESETS=1). Seats 0 and 2
// send each other unique markers: no byte seat 1, a spectator with a token
// or an anonymous caller receives (REST game, view, log, export before the
// end, WebSocket frames) may carry one. Two games with a spectator delay,
// in versions and in seconds: no spectator answer or frame shows a version
// before its time.

async function signalsGame(W, tag, delay, turns) {
  const hosts = [await W.player(`${tag}a`), await W.player(`${tag}b`), await W.player(`${tag}c`)];
  const spectator = await W.player(`${tag}sp`);
  const anon = audience(`${tag} anonymous`);
  const lb = await W.call(hosts[0], 'POST', '/api/v1/lobbies', {
    body: { ruleset: 'signals', seats: 3, options: { turns }, spectator_delay: delay },
  });
  assert.equal(lb.status, 201, lb.text);
  assert.deepEqual(lb.json.spectator_delay, { versions: 0, seconds: 0, ...delay });
  for (const a of hosts.slice(1)) {
    const j = await W.call(a, 'POST', `/api/v1/lobbies/${lb.json.id}/seats`, { body: {} });
    assert.equal(j.status, 200, j.text);
  }
  const st = await W.call(hosts[0], 'POST', `/api/v1/lobbies/${lb.json.id}/start`);
  assert.equal(st.status, 201, st.text);
  const id = st.json.game;
  const g0 = await W.call(hosts[0], 'GET', `/api/v1/games/${id}`, { game: id });
  const bySeat = [];
  for (const s of g0.json.seats) {
    const a = hosts.find((h) => h.player.id === s.player.id);
    a.label = `${tag} seat ${s.seat}`;
    bySeat[s.seat] = a;
  }
  spectator.label = `${tag} spectator`;
  const auds = [...bySeat, spectator, anon];
  const taps = new Map();
  for (const a of auds) {
    const t = await W.tap(a);
    t.send({ type: 'subscribe', game: id });
    taps.set(a, t);
  }
  for (const t of taps.values()) await t.until(() => t.version(id) !== null, 10000, 'a snapshot');
  return { id, bySeat, spectator, anon, taps, sentAt: [0], played: [], liveUpper: 0, live: 0 };
}

// Play turn `turn`: seats 0 and 2 send each other a marker, seat 1 talks to
// itself or passes. Records when the input was sent and its version.
async function signalsTurn(W, g, turn, markers) {
  const seat = turn % 3;
  let body = { window: `t${turn}`, to: [], text: '' };
  if (seat !== 1) {
    const value = `SIGnal${hex(6)}`;
    markers.push({ value, seats: new Set([0, 2]), game: g.id });
    body = { window: `t${turn}`, to: [2 - seat], text: value };
  } else if (turn % 2) {
    body = { window: `t${turn}`, to: [1], text: `self${hex(2)}` };
  }
  const tSent = now();
  g.liveUpper = turn + 1;
  const r = await W.call(g.bySeat[seat], 'POST', `/api/v1/games/${g.id}/plays`, {
    game: g.id,
    kind: 'ack',
    body,
    headers: { 'idempotency-key': `s-${hex(8)}` },
  });
  assert.equal(r.status, 200, r.text);
  g.live = r.json.version;
  g.played[g.live] = tSent;
  g.sentAt[g.live] = g.sentAt[g.live - 1] + (body.to.length ? 1 : 0);
  // What every seat can read now (seat 1 must never read a {0,2} entry).
  for (const a of g.bySeat) {
    for (const path of ['', '/view', '/log'])
      await W.call(a, 'GET', `/api/v1/games/${g.id}${path}`, { game: g.id });
  }
}

// Everything a spectator and the anonymous caller can read now, checked
// against the versions delay: never above live - versions.
async function spectatorReads(W, g, versions) {
  for (const a of [g.spectator, g.anon]) {
    const bound = Math.max(0, g.live - versions);
    const game = await W.call(a, 'GET', `/api/v1/games/${g.id}`, { game: g.id });
    assert.equal(game.status, 200, game.text);
    assert.ok(
      game.json.version <= bound,
      `${a.label}: version ${game.json.version} with live ${g.live}`,
    );
    assert.equal(game.json.view.sent, g.sentAt[game.json.version]);
    const view = await W.call(a, 'GET', `/api/v1/games/${g.id}/view`, { game: g.id });
    assert.ok(
      view.json.inputs <= bound,
      `${a.label}: view at ${view.json.inputs} with live ${g.live}`,
    );
    assert.equal(view.version, view.json.inputs, 'the ETag names the version shown');
    const log = await W.call(a, 'GET', `/api/v1/games/${g.id}/log`, { game: g.id });
    const sent = log.json.entries.filter((e) => e.entry.type === 'sent').length;
    assert.ok(
      sent <= g.sentAt[bound],
      `${a.label}: ${sent} sent entries in the log at live ${g.live}`,
    );
    for (const e of log.json.entries) assert.ok(e.seat === null && !e.seats, JSON.stringify(e));
    // The log's other channel, game_events (a seat handed to a bot, a
    // vacation stand-in): the delay holds them back too (signalsEvent).
    for (const e of log.json.events ?? [])
      assert.ok(
        e.version <= bound,
        `${a.label}: an event of version ${e.version} at live ${g.live}: ${JSON.stringify(e)}`,
      );
  }
  // /metrics, as any caller on this host reads it: scanned with the rest
  // (no marker, token or seed may be in it).
  await W.call(g.anon, 'GET', '/metrics');
}

// A game event at the live version, as the server records one when a seat is
// handed to a bot; straight into the store, since the signals game has no
// clock. Seats read every event at once; spectators by the delay's rule.
function signalsEvent(W, g) {
  psql(
    W.db,
    `INSERT INTO game_events (game_id, at_version, kind, detail) VALUES ` +
      `('${g.id}', ${g.live}, 'seat_replaced', '{"seat":1,"bot":"x","missed":1}')`,
  );
  g.events = (g.events ?? 0) + 1;
}

test(
  'seat-set entries reach their seats only; delayed spectators never see a version early',
  { timeout: 120000 },
  async () => {
    const db = createDatabase('canary_sets');
    let srv;
    try {
      srv = await startServer({
        db,
        env: {
          CONCLAVE_EXAMPLE_RULESETS: '1',
          CONCLAVE_RATE: '1000000',
          CONCLAVE_RATE_BURST: '1000000',
          CONCLAVE_LOG_LEVEL: 'debug',
          ...WS_UNLIMITED,
        },
      });
      const W = new World(srv, db);
      const markers = [];
      // A versions delay: 2 versions behind live, checked after every input.
      const V = 2;
      const gv = await signalsGame(W, 'SV', { versions: V }, 9);
      const early = [];
      for (const t of [gv.taps.get(gv.spectator), gv.taps.get(gv.anon)]) {
        const orig = t.onMessage.bind(t);
        t.onMessage = (text) => {
          const m = JSON.parse(text);
          const v = m.type === 'snapshot' ? m.version : m.type === 'patch' ? m.to : null;
          if (v !== null && gv.liveUpper < 9 && v > Math.max(0, gv.liveUpper - V))
            early.push(`${t.aud.label}: ${v} at live <= ${gv.liveUpper}`);
          orig(text);
        };
      }
      for (let turn = 0; turn < 9; turn++) {
        await signalsTurn(W, gv, turn, markers);
        if (turn % 3 === 1) signalsEvent(W, gv);
        if (turn < 8) await spectatorReads(W, gv, V);
      }
      assert.deepEqual(early, []);
      // Positive control: the seats read every event, the spectators too
      // once the game is over.
      const seatLog = await W.call(gv.bySeat[1], 'GET', `/api/v1/games/${gv.id}/log`, {
        game: gv.id,
      });
      assert.equal(seatLog.json.events.length, gv.events, seatLog.text);
      // Over: the versions delay ends; the spectators reach the end.
      for (const a of [gv.spectator, gv.anon]) {
        const t = gv.taps.get(a);
        await t.until(() => t.version(gv.id) === 9, 10000, 'the last version');
      }
      const ex = await W.call(gv.spectator, 'GET', `/api/v1/games/${gv.id}/export`, {
        game: gv.id,
      });
      assert.equal(ex.status, 200, ex.text);

      // A seconds delay: each version reaches spectators 2 s after its input
      // was sent at the earliest, the export too.
      const S = 2;
      const gs = await signalsGame(W, 'SS', { seconds: S }, 3);
      for (let turn = 0; turn < 3; turn++) {
        await signalsTurn(W, gs, turn, markers);
        const r = await W.call(gs.spectator, 'GET', `/api/v1/games/${gs.id}`, { game: gs.id });
        assert.ok(
          r.json.version < gs.live,
          `version ${r.json.version} right after input ${gs.live}`,
        );
        assert.equal(r.json.status, 'running');
      }
      const exEarly = await W.call(gs.anon, 'GET', `/api/v1/games/${gs.id}/export`, {
        game: gs.id,
      });
      assert.equal(exEarly.status, 403, exEarly.text);
      // A rematch offered while the delay holds the end back: a lobby that
      // would tell outsiders the game is over, so theirs to see only later.
      const offered = await W.call(gs.bySeat[0], 'POST', `/api/v1/games/${gs.id}/rematch`);
      assert.equal(offered.status, 201, offered.text);
      const rematch = offered.json.lobby.id;
      const listed = async (a) =>
        (await W.call(a, 'GET', '/api/v1/lobbies?status=open')).json.some((l) => l.id === rematch);
      if ((await W.call(gs.anon, 'GET', `/api/v1/games/${gs.id}`)).json.status === 'running') {
        assert.equal(await listed(gs.anon), false, 'the rematch lobby is listed inside the delay');
        assert.equal(await listed(gs.spectator), false, 'a spectator lists the rematch lobby');
        assert.equal((await W.call(gs.anon, 'GET', `/api/v1/lobbies/${rematch}`)).status, 404);
      }
      assert.equal(await listed(gs.bySeat[0]), true, 'its host lists the rematch lobby');
      const exSeat = await W.call(gs.bySeat[1], 'GET', `/api/v1/games/${gs.id}/export`, {
        game: gs.id,
      });
      assert.equal(exSeat.status, 200, exSeat.text);
      for (const a of [gs.spectator, gs.anon]) {
        const t = gs.taps.get(a);
        await t.until(() => t.version(gs.id) === 3, 10000, 'the last version');
      }
      await sleep(200);
      const late = await W.call(gs.anon, 'GET', `/api/v1/games/${gs.id}/export`, { game: gs.id });
      assert.equal(late.status, 200, late.text);
      let out = false;
      for (let i = 0; i < 100 && !out; i++) {
        out = await listed(gs.anon);
        if (!out) await sleep(100);
      }
      assert.ok(out, 'the rematch lobby is listed once the end is out');
      const fin = await W.call(gs.spectator, 'GET', `/api/v1/games/${gs.id}`, { game: gs.id });
      assert.equal(fin.json.version, 3);
      assert.equal(fin.json.status, 'finished');
      for (const r of W.cap.records) {
        if (r.game !== gs.id || r.version === null || r.version === undefined || r.version === 0)
          continue;
        if (r.aud !== gs.spectator && r.aud !== gs.anon) continue;
        if (r.src === 'rest' && r.kind !== 'game') continue;
        const sent = gs.played[r.version];
        assert.ok(
          r.t1 >= sent + S * 1000 - 5,
          `${r.aud.label} ${r.kind} at version ${r.version} ${(r.t1 - sent).toFixed(0)} ms after its input`,
        );
      }

      // Markers: seats 0 and 2 only (the positive control: they saw them).
      await sleep(300);
      for (const t of W.taps) t.close();
      const seen = new Map();
      for (const r of W.cap.records) {
        if (!r.text || r.kind === 'export') continue; // an export is public once visible
        for (const m of markers) {
          if (!r.text.includes(m.value)) continue;
          const g = [gv, gs].find((x) => x.id === m.game);
          const seat = g.bySeat.indexOf(r.aud);
          assert.ok(
            seat >= 0 && m.seats.has(seat),
            `marker for seats {0,2} reached ${r.aud?.label ?? r.src}: ${r.text.slice(0, 200)}`,
          );
          seen.set(seat, (seen.get(seat) || 0) + 1);
        }
      }
      assert.ok(
        seen.get(0) > 0 && seen.get(2) > 0,
        'positive control: seats 0 and 2 saw the markers',
      );
      const exit = await srv.stop();
      srv = null;
      assert.equal(exit.code, 0);
    } catch (e) {
      if (srv)
        console.log(
          `# server log (last lines):\n${srv.lines
            .slice(-15)
            .map((l) => `#   ${l}`)
            .join('\n')}`,
        );
      throw e;
    } finally {
      if (srv) await srv.stop();
      dropDatabase(db);
    }
  },
);
