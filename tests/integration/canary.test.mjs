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
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import WebSocket from 'ws';
import jsonpatch from 'fast-json-patch';
import { createDatabase, dropDatabase, startServer, psql, sleep } from './lib/server.mjs';
import { smtpSink, hookSink } from './lib/notify_sinks.mjs';
import {
  SEED,
  rnd,
  pick,
  chance,
  sample,
  hex,
  probe,
  gameNow,
  describe,
  checkPrivateParts,
} from './canary/kit.mjs';
import { CANARIES, canaryOf } from './canary/registry.mjs';
import { cardIds } from './canary/sprint.mjs';
import { checkSkirmish } from './canary/skirmish.mjs';
import { checkStarbase } from './canary/starbase.mjs';
import { checkCouncil } from './canary/council.mjs';

// The WebSocket per-address limits, lifted like the HTTP ones above.
const WS_UNLIMITED = {
  CONCLAVE_WS_IP_RATE: '1000000',
  CONCLAVE_WS_IP_RATE_BURST: '1000000',
  CONCLAVE_WS_AUTH_RATE: '1000000',
  CONCLAVE_WS_AUTH_BURST: '1000000',
};

const now = () => performance.now();

// --------------------------------------------------------------- capture --

// A record is one thing one audience received:
// {src: 'rest'|'ws'|'notify'|'serverlog', aud, kind, game, version, status,
//  text, json, vlo, vhi}. kind: game, view, legal, log, export, ack, error,
// other, ws-snapshot, ws-patch, ws-error, ws-lobbies, ws-lobby, ws-other.
class Capture {
  constructor() {
    this.records = [];
  }

  add(r) {
    this.records.push(r);
    return r;
  }
}

// An audience: who receives a record. player is null for anonymous callers;
// seats maps game id -> seat for the games the player sits in.
function audience(label, player = null) {
  return { label, player, seats: new Map() };
}

function etagVersion(res) {
  const e = res.headers.get('etag');
  const m = e && /^"(\d+)"$/.exec(e);
  return m ? Number(m[1]) : null;
}

// What a GET of a game path returns.
function kindOf(method, p) {
  if (method !== 'GET') return 'other';
  const m = /^\/api\/v1\/games\/[^/?]+(\/(view|legal|log|export))?(\?.*)?$/.exec(p);
  return m ? m[2] || 'game' : 'other';
}

// One REST call as aud, captured with its headers.
async function call(cap, base, aud, method, p, { body, headers = {}, game = null, kind } = {}) {
  kind = kind || kindOf(method, p);
  const h = { ...headers };
  if (aud.player?.token) h.authorization = `Bearer ${aud.player.token}`;
  let payload;
  if (body !== undefined) {
    payload = typeof body === 'string' ? body : JSON.stringify(body);
    h['content-type'] = 'application/json';
  }
  const t0 = now();
  let res;
  try {
    res = await fetch(base + p, { method, headers: h, body: payload });
  } catch (e) {
    throw new Error(
      `${aud.label}: ${method} ${p}: ${e.message} (${e.cause?.code ?? ''} ${e.cause?.message ?? ''})`,
    );
  }
  const text = await res.text();
  const head = [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  let version = etagVersion(res);
  if (kind === 'game' && json && Number.isInteger(json.version)) version = json.version;
  if (kind === 'ack' && json && Number.isInteger(json.version)) version = json.version;
  const rec = cap.add({
    src: 'rest',
    aud,
    method,
    path: p,
    status: res.status,
    text: `${head}\n\n${text}`,
    json,
    game,
    kind: res.status >= 400 ? 'error' : kind,
    version,
    t0,
    t1: now(),
  });
  return { status: res.status, json, text, rec, version };
}

// A WebSocket connection of one audience; keeps, per game, the document
// {view, windows} at every version it saw.
class Tap {
  constructor(cap, aud) {
    this.cap = cap;
    this.aud = aud;
    this.games = new Map(); // game -> {version, doc, hist: Map(version -> doc)}
    this.mismatches = 0;
    this.waiters = [];
    this.closed = false;
  }

  // A connection whose handshake fails (on a machine this loaded the
  // upgrade is now and then cut before its answer) is tried again, up to
  // three times; nothing is captured before a connection is open.
  static async open(cap, url, aud, stats = null) {
    for (let attempt = 1; ; attempt++) {
      const tap = new Tap(cap, aud);
      const ws = new WebSocket(url, 'conclave.v1');
      tap.ws = ws;
      ws.on('error', () => {});
      try {
        await new Promise((resolve, reject) => {
          ws.once('open', resolve);
          ws.once('error', reject);
        });
      } catch (e) {
        if (attempt >= 3) throw new Error(`${aud.label}: WebSocket handshake: ${e.message}`);
        if (stats) stats.wsRetries++;
        await sleep(200 * attempt);
        continue;
      }
      ws.on('message', (data) => tap.onMessage(data.toString()));
      ws.on('close', () => {
        tap.closed = true;
        tap.wake();
      });
      if (aud.player) tap.send({ type: 'auth', token: aud.player.token });
      return tap;
    }
  }

  send(m) {
    this.ws.send(typeof m === 'string' ? m : JSON.stringify(m));
  }

  onMessage(text) {
    let m = null;
    try {
      m = JSON.parse(text);
    } catch {
      m = null;
    }
    const type = m && typeof m.type === 'string' ? m.type : 'other';
    const kind = ['snapshot', 'patch', 'error', 'lobbies', 'lobby'].includes(type)
      ? `ws-${type}`
      : 'ws-other';
    const version = type === 'snapshot' ? m.version : type === 'patch' ? m.to : null;
    const t = now();
    this.cap.add({
      src: 'ws',
      aud: this.aud,
      kind,
      game: m?.game ?? null,
      version,
      text,
      json: m,
      t0: t,
      t1: t,
    });
    if (type === 'snapshot') {
      const doc = { view: m.view, windows: m.windows };
      const g = this.games.get(m.game) || { hist: new Map() };
      g.version = m.version;
      g.doc = doc;
      g.hist.set(m.version, structuredClone(doc));
      this.games.set(m.game, g);
    } else if (type === 'patch') {
      const g = this.games.get(m.game);
      if (!g || g.version !== m.from) {
        this.mismatches++;
        this.send({ type: 'subscribe', game: m.game, ...(g ? { version: g.version } : {}) });
      } else {
        g.doc = jsonpatch.applyPatch(g.doc, m.ops, true, false).newDocument;
        g.version = m.to;
        g.hist.set(m.to, structuredClone(g.doc));
      }
    }
    this.wake();
  }

  wake() {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  async until(fn, timeout = 10000, what = 'condition') {
    const end = Date.now() + timeout;
    for (;;) {
      const v = fn();
      if (v) return v;
      const left = end - Date.now();
      if (this.closed)
        throw new Error(`${this.aud.label}: the connection closed while waiting for ${what}`);
      if (left <= 0) throw new Error(`${this.aud.label}: timed out waiting for ${what}`);
      await new Promise((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 100));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  version(game) {
    return this.games.get(game)?.version ?? null;
  }

  close() {
    try {
      this.ws.close();
    } catch {
      /* already closed */
    }
  }
}

// LISTEN conclave_games and conclave_lobbies with psql, polling so that psql
// prints each notification it has received.
function listenNotify(cap, url) {
  const proc = spawn('psql', ['-X', '-q', '-At', url], { stdio: ['pipe', 'pipe', 'pipe'] });
  let buf = '';
  const seen = [];
  proc.stdout.on('data', (chunk) => {
    buf += chunk;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      const m =
        /^Asynchronous notification "([^"]+)" with payload "(.*)" received from server process with PID \d+\.$/.exec(
          line,
        );
      if (m) {
        seen.push({ channel: m[1], payload: m[2] });
        const t = now();
        cap.add({
          src: 'notify',
          aud: null,
          kind: m[1],
          game: null,
          version: null,
          text: m[2],
          json: null,
          t0: t,
          t1: t,
        });
      }
    }
  });
  proc.stdin.write('LISTEN conclave_games;\nLISTEN conclave_lobbies;\nLISTEN conclave_chat;\n');
  const timer = setInterval(() => proc.stdin.write('SELECT 1;\n'), 50);
  const exited = new Promise((r) => proc.on('exit', r));
  let stopped = false;
  return {
    seen,
    async stop() {
      if (stopped) return exited;
      stopped = true;
      clearInterval(timer);
      proc.stdin.write('SELECT 1;\n\\q\n');
      proc.stdin.end();
      await exited;
    },
  };
}

// -------------------------------------------------------------- markers --

class Markers {
  constructor() {
    this.all = [];
    this.byValue = new Map();
  }

  add(m) {
    this.all.push(m);
    this.byValue.set(m.value, m);
    return m;
  }
}

const sha256hex = (s) => createHash('sha256').update(s).digest('hex');

// ------------------------------------------------------------ the world --

class World {
  constructor(srv, db) {
    this.srv = srv;
    this.db = db;
    this.base = srv.url;
    this.cap = new Capture();
    this.markers = new Markers();
    this.games = []; // game contexts
    this.lobbies = []; // {id, code, members:Set(player)}
    this.taps = [];
    this.counter = 0;
    this.stats = {
      oracle: 0,
      fallbacks: 0,
      lateOrders: 0,
      replaced: 0,
      withdrawn: 0,
      actions: 0,
      wsRetries: 0,
    };
    this.hookPort = 0; // the webhook receiver, when notifications are on
    this.byName = new Map(); // player name -> audience
  }

  call(aud, method, p, opts) {
    return call(this.cap, this.base, aud, method, p, opts);
  }

  // A new player (with a password marker when not a guest).
  async player(prefix, guest = chance(0.5)) {
    const name = `${prefix}${++this.counter}_${hex(3)}`.slice(0, 24);
    const password = guest ? undefined : `CNRYpw${hex(8)}`;
    const player = { name, password };
    const aud = audience(`player ${name}`, player);
    if (password) this.markers.add({ kind: 'password', value: password });
    const r = await this.call(aud, 'POST', '/api/v1/players', {
      body: password ? { name, password } : { name },
    });
    assert.equal(r.status, 201, r.text);
    Object.assign(player, r.json);
    this.tokenMarker(player, r.json.token);
    this.byName.set(name.toLowerCase(), aud);
    if (this.hookPort) await this.subscribe(aud);
    if (password && chance(0.5)) {
      // A second token from a session: both are the player's.
      const s = await this.call(aud, 'POST', '/api/v1/sessions', { body: { name, password } });
      assert.equal(s.status, 201, s.text);
      this.tokenMarker(player, s.json.token);
      player.token = s.json.token;
    }
    return aud;
  }

  // A verified address (written straight to the table: the mailed link
  // is notifications.test.mjs's) and a webhook to the local receiver.
  async subscribe(aud) {
    const { name, id } = aud.player;
    psql(
      this.db,
      `INSERT INTO notify_settings (player_id, email, email_verified) VALUES ('${id}', '${name.toLowerCase()}@example.test', true)`,
    );
    const w = await this.call(aud, 'POST', '/api/v1/me/notifications/webhooks', {
      body: { url: `http://127.0.0.1:${this.hookPort}/hook/${name.toLowerCase()}` },
    });
    assert.equal(w.status, 201, w.text);
  }

  // Every mail and webhook body received, as records of their player.
  captureNotifications(smtp, hooks) {
    for (const p of hooks.posts) {
      const aud = this.byName.get(p.url.split('/').pop());
      // All headers but the signature (an HMAC: a 64-hex string by design).
      const head = Object.entries(p.headers)
        .filter(([k]) => k !== 'conclave-signature')
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n');
      this.cap.add({
        src: 'hook',
        aud,
        kind: 'hook',
        game: p.body.game?.id ?? null,
        version: p.body.game?.version ?? null,
        text: `${head}\n\n${p.text}`,
        json: p.body,
      });
    }
    for (const m of smtp.mails) {
      const aud = this.byName.get(m.to[0].split('@')[0]);
      const id = (/^Conclave-Notification-Id: (.*)$/im.exec(m.data) || [])[1] || '';
      const [game, version] = id.split(':');
      this.cap.add({
        src: 'mail',
        aud,
        kind: 'mail',
        game: game || null,
        version: Number(version) || null,
        text: m.data,
        json: null,
      });
    }
  }

  tokenMarker(player, token) {
    this.markers.add({ kind: 'token', value: token, player });
    this.markers.add({ kind: 'tokenhash', value: sha256hex(token) });
  }

  async tap(aud) {
    const t = await Tap.open(this.cap, this.srv.wsUrl, aud, this.stats);
    this.taps.push(t);
    return t;
  }
}

// Set up a game: humans (audiences) in seats, bots, a spectator with a
// token, an anonymous caller; a WebSocket tap for each; the seed marker.
async function setupGame(W, { ruleset, humans, bots = [], options, isPrivate = false, tag }) {
  const hosts = [];
  for (let i = 0; i < humans; i++) hosts.push(await W.player(`${tag}h`));
  const spectator = await W.player(`${tag}sp`);
  const anon = audience(`${tag} anonymous`);
  const host = hosts[0];
  const seats = humans + bots.length;
  const lb = await W.call(host, 'POST', '/api/v1/lobbies', {
    body: {
      ruleset,
      seats,
      ...(options ? { options } : {}),
      ...(isPrivate ? { private: true } : {}),
    },
  });
  assert.equal(lb.status, 201, lb.text);
  const lobby = { id: lb.json.id, code: lb.json.invite_code, members: new Set([host.player]) };
  W.lobbies.push(lobby);
  if (isPrivate) {
    assert.ok(lobby.code, 'a private lobby has an invite code');
    W.markers.add({ kind: 'invite', value: lobby.code, lobby });
    W.markers.add({ kind: 'lobbyid', value: lobby.id, lobby });
    // Non-members asking for it: 404, nothing revealed.
    const r1 = await W.call(spectator, 'GET', `/api/v1/lobbies/${lobby.id}`);
    assert.equal(r1.status, 404, r1.text);
    const r2 = await W.call(anon, 'GET', '/api/v1/lobbies?status=open');
    assert.equal(r2.status, 200, r2.text);
    await W.call(spectator, 'GET', '/api/v1/lobbies');
  }
  // Bots and joiners in a random order (seats are taken in order).
  const steps = [...hosts.slice(1).map((a) => ({ a })), ...bots.map((level) => ({ level }))];
  for (const st of sample(steps, steps.length)) {
    if (st.a) {
      lobby.members.add(st.a.player);
      const j = await W.call(st.a, 'POST', `/api/v1/lobbies/${lobby.id}/seats`, {
        body: isPrivate ? { code: lobby.code } : {},
      });
      assert.equal(j.status, 200, j.text);
    } else {
      const b = await W.call(host, 'POST', `/api/v1/lobbies/${lobby.id}/bots`, {
        body: { level: st.level },
      });
      assert.equal(b.status, 200, b.text);
    }
  }
  for (const a of hosts) await W.call(a, 'GET', `/api/v1/lobbies/${lobby.id}`);
  await W.call(host, 'GET', '/api/v1/me');
  const st = await W.call(host, 'POST', `/api/v1/lobbies/${lobby.id}/start`);
  assert.equal(st.status, 201, st.text);
  const id = st.json.game;
  assert.match(id, /^[A-Za-z0-9_-]+$/);
  // The seed, straight from the database, while the game runs.
  const seed = psql(W.db, `SELECT encode(seed, 'hex') FROM games WHERE game_id = '${id}'`);
  assert.match(seed, /^[0-9a-f]{64}$/);
  const raw = Buffer.from(seed, 'hex');
  for (const value of [
    seed,
    seed.toUpperCase(),
    raw.toString('base64'),
    raw.toString('base64url'),
  ]) {
    W.markers.add({ kind: 'seed', value, game: id });
  }
  const g0 = await W.call(anon, 'GET', `/api/v1/games/${id}`, { game: id, kind: 'game' });
  assert.equal(g0.status, 200, g0.text);
  const seatAud = new Map();
  for (const s of g0.json.seats) {
    const a = s.player && hosts.find((h) => h.player.id === s.player.id);
    if (a) {
      a.seats.set(id, s.seat);
      a.label = `${tag} seat ${s.seat}`;
      seatAud.set(s.seat, a);
    }
  }
  assert.equal(seatAud.size, humans);
  spectator.label = `${tag} spectator`;
  const auds = [...seatAud.values(), spectator, anon];
  const ctx = {
    W,
    id,
    ruleset,
    tag,
    seats,
    seatAud,
    spectator,
    anon,
    auds,
    lobby,
    seed,
    taps: new Map(),
    notes: [],
    bots: bots.length,
    oracle: [],
    orders: [],
    canary: canaryOf(ruleset),
  };
  for (const a of auds) {
    const t = await W.tap(a);
    t.send({ type: 'subscribe', game: id });
    ctx.taps.set(a, t);
    // A few malformed messages: their errors are captured too.
    if (chance(0.5)) t.send('{"type":');
    if (chance(0.5)) t.send({ type: 'subscribe', game: 'no-such-game' });
    if (chance(0.3)) t.send({ type: 'unsubscribe', game: id, extra: 1 });
  }
  for (const t of ctx.taps.values())
    await t.until(() => t.version(id) !== null, 10000, 'a snapshot');
  W.games.push(ctx);
  return ctx;
}

// Table talk in game ctx: a private channel between a human seat and
// another seat, a message there (and a reply when the other is human), one
// in the public channel, text the server refuses, then every audience reads
// the list and both channels and tries the private one (markers: "chat",
// with the seats entitled, null for everyone, an empty set for no one).
async function talk(ctx) {
  const { W, id } = ctx;
  if (ctx.seats < 2) return;
  const chat = (aud, method, p, body) =>
    W.call(aud, method, `/api/v1/games/${id}${p}`, { body, game: id, kind: 'chat' });
  const [[s0, a0]] = [...ctx.seatAud.entries()];
  const s1 = pick([...Array(ctx.seats).keys()].filter((s) => s !== s0));
  const members = new Set([s0, s1]);
  const marker = (seats) =>
    W.markers.add({ kind: 'chat', value: `CNRYchat${hex(6)}`, game: id, seats });
  const open = await chat(a0, 'POST', '/channels', { seats: [s1] });
  assert.equal(open.status, 201, open.text);
  const cid = open.json.id;
  const said = await chat(a0, 'POST', `/channels/${cid}/messages`, {
    text: `psst ${marker(members).value}`,
  });
  assert.equal(said.status, 201, said.text);
  const a1 = ctx.seatAud.get(s1);
  if (a1)
    assert.equal(
      (
        await chat(a1, 'POST', `/channels/${cid}/messages`, {
          text: `deal ${marker(members).value}`,
        })
      ).status,
      201,
    );
  assert.equal(
    (await chat(a0, 'POST', '/channels/0/messages', { text: `hello ${marker(null).value}` }))
      .status,
    201,
  );
  const big = await chat(a0, 'POST', `/channels/${cid}/messages`, {
    text: `${marker(new Set()).value} ${'x'.repeat(2001)}`,
  });
  assert.equal(big.status, 413, big.text);
  for (const a of ctx.auds) {
    const member = members.has(a.seats.get(id));
    await chat(a, 'GET', '/channels');
    await chat(a, 'GET', '/channels/0/messages');
    const r = await chat(a, 'GET', `/channels/${cid}/messages?limit=${1 + Math.floor(rnd() * 5)}`);
    assert.equal(r.status, member ? 200 : 404, `${a.label} reading the private channel: ${r.text}`);
    if (!member) {
      const p = await chat(a, 'POST', `/channels/${cid}/messages`, {
        text: `let me in ${marker(new Set()).value}`,
      });
      assert.ok([401, 403, 404].includes(p.status), p.text);
      await chat(a, 'PUT', `/channels/${cid}/read`, { seq: 1 });
    }
  }
}

// After the end: wait for every tap to hold the final version, then read
// the game (now with its seed) and the export as every audience.
async function finish(ctx) {
  const { W, id } = ctx;
  const g = await gameNow(ctx);
  assert.notEqual(g.status, 'running');
  for (const t of ctx.taps.values())
    await t.until(() => t.version(id) >= g.version, 30000, 'the final version');
  await probe(ctx);
  for (const a of ctx.auds) {
    const gr = await W.call(a, 'GET', `/api/v1/games/${id}`, { game: id, kind: 'game' });
    assert.equal(gr.json.seed, ctx.seed, 'the game resource shows the seed once the game is over');
    const ex = await W.call(a, 'GET', `/api/v1/games/${id}/export`, { game: id, kind: 'export' });
    assert.equal(ex.status, 200, ex.text);
    ctx.export = ex.json;
  }
  assert.equal(ctx.export.seed, ctx.seed);
  assert.equal(
    sha256hex(Buffer.from(ctx.seed, 'hex')),
    ctx.export.seed_sha256,
    'the published seed_sha256 matches',
  );
  ctx.finalVersion = g.version;
  // Which note was revealed, and at which version each window locked.
  ctx.lockVersion = new Map();
  const lastOrder = new Map(); // window/seat -> input
  for (const inp of ctx.export.inputs) {
    if (!inp.window) continue;
    if (inp.kind === 'order' || inp.kind === 'timeout') ctx.lockVersion.set(inp.window, inp.seq);
    if (inp.kind === 'order') lastOrder.set(`${inp.window}/${inp.seat}`, inp);
    if (inp.kind === 'system' && inp.payload?.action === 'withdraw')
      lastOrder.delete(`${inp.window}/${inp.seat}`);
  }
  // Every audience's whole log (its own entries and the public ones), for
  // a ruleset whose check reads it (Council's).
  ctx.logs = new Map();
  if (ctx.canary.wholeLog) {
    for (const a of ctx.auds) {
      const entries = [];
      for (let after = 0, i = 0; i < 100; i++) {
        const r = await W.call(
          a,
          'GET',
          `/api/v1/games/${id}/log${after ? `?after=${after}` : ''}`,
          { game: id, kind: 'log' },
        );
        assert.equal(r.status, 200, r.text);
        const es = r.json.entries || [];
        if (!es.length) break;
        entries.push(...es);
        after = es[es.length - 1].seq;
      }
      ctx.logs.set(a, entries);
    }
  }
  for (const m of ctx.notes) {
    const last = lastOrder.get(`${m.window}/${m.seat}`);
    m.revealed = !!last && last.payload?.note === m.value;
    m.lock = ctx.lockVersion.get(m.window);
  }
}

// -------------------------------------------------------------- checker --

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

// Is record r entitled to see marker m?
function entitled(r, m) {
  const player = r.aud?.player;
  switch (m.kind) {
    case 'token':
      return !!player && player === m.player && (r.src === 'rest' || r.src === 'ws');
    case 'tokenhash':
    case 'password':
      return false;
    case 'seed':
      return (
        r.game === m.game &&
        r.status === 200 &&
        ((r.kind === 'game' && r.json?.status && r.json.status !== 'running') ||
          r.kind === 'export')
      );
    case 'invite':
    case 'lobbyid':
      if (m.kind === 'lobbyid' && (r.src === 'notify' || r.src === 'serverlog')) return true; // ids only, to operators
      return !!player && m.lobby.members.has(player) && (r.src === 'rest' || r.src === 'ws');
    case 'chat':
      // Table talk: a private channel's members, or (seats null) every
      // audience of the game; never in an error, a NOTIFY or a log line.
      // A private message's notification (mail, webhook) goes to members.
      if ((r.src === 'hook' || r.src === 'mail') && m.seats !== null)
        return r.game === m.game && m.seats.has(r.aud?.seats.get(m.game));
      if (r.src !== 'rest' && r.src !== 'ws') return false;
      if (r.game !== m.game || r.kind === 'error' || r.kind === 'ws-error') return false;
      return m.seats === null || m.seats.has(r.aud?.seats.get(m.game));
    case 'part':
      // A Council order part's name: its author only (others learn how
      // many parts), and the export of the finished game. Notifications
      // count as what their player sees.
      if (r.src !== 'rest' && r.src !== 'ws' && r.src !== 'hook' && r.src !== 'mail') return false;
      if (r.game !== m.game) return false;
      return r.aud?.seats.get(m.game) === m.seat || (r.kind === 'export' && r.status === 200);
    case 'note': {
      if (r.src !== 'rest' && r.src !== 'ws' && r.src !== 'hook' && r.src !== 'mail') return false;
      if (r.game !== m.game) return false;
      if (r.aud?.seats.get(m.game) === m.seat) return true;
      if (r.kind === 'export' && r.status === 200) return true;
      if (!m.revealed) return false;
      if (
        ['game', 'view', 'legal', 'ack', 'ws-snapshot', 'ws-patch', 'hook'].includes(r.kind) &&
        Number.isInteger(r.version)
      ) {
        return r.version >= m.lock;
      }
      if (r.kind === 'log') {
        return (r.json?.entries || []).some(
          (e) => e.entry?.type === 'reveal' && e.entry.window === m.window,
        );
      }
      return false; // errors, lobby feed, anything else
    }
    default:
      return false;
  }
}

// Scan every record for every marker and every 64-hex string.
function scanMarkers(records, markers, publicHex) {
  const leaks = [];
  const allowedSeen = new Map(); // kind -> count of sightings where allowed
  const cnry = /CNRY[A-Za-z0-9]+/g;
  const hex64 = /(?<![0-9A-Fa-f])[0-9A-Fa-f]{64}(?![0-9A-Fa-f])/g;
  const literals = markers.all.filter(
    (m) => !m.value.startsWith('CNRY') && !/^[0-9A-Fa-f]{64}$/.test(m.value),
  );
  const lit = literals.length ? new RegExp(literals.map((m) => esc(m.value)).join('|'), 'g') : null;
  const seen = (r, m) => {
    if (entitled(r, m)) allowedSeen.set(m.kind, (allowedSeen.get(m.kind) || 0) + 1);
    else leaks.push({ what: `${m.kind} marker`, marker: m.value, record: describe(r) });
  };
  for (const r of records) {
    const text = r.text || '';
    for (const x of text.matchAll(cnry)) {
      const m = markers.byValue.get(x[0]);
      if (m) seen(r, m);
      else
        leaks.push({
          what: 'unknown CNRY string (a marker cut or altered)',
          marker: x[0],
          record: describe(r),
        });
    }
    if (lit) for (const x of text.matchAll(lit)) seen(r, markers.byValue.get(x[0]));
    for (const x of text.matchAll(hex64)) {
      const h = x[0];
      const m = markers.byValue.get(h);
      if (m) seen(r, m);
      else if (!publicHex.has(h.toLowerCase()))
        leaks.push({
          what: 'unexplained 64-hex string (seed, key or hash?)',
          marker: h,
          record: describe(r),
        });
    }
  }
  return { leaks, allowedSeen };
}

// Every published 64-hex value seen in client records (seed_sha256,
// receipts, final hashes, card data hashes).
function collectPublicHex(records) {
  const out = new Set();
  const keys = new Set(['seed_sha256', 'receipt', 'final_hash', 'sha256']);
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (keys.has(k) && typeof x === 'string') out.add(x.toLowerCase());
        else walk(x);
      }
    }
  };
  for (const r of records) if (r.src === 'rest' || r.src === 'ws') walk(r.json);
  return out;
}
function checkNotify(records, gameIds) {
  const leaks = [];
  for (const r of records.filter((x) => x.src === 'notify')) {
    const ok =
      r.kind === 'conclave_games'
        ? /^[A-Za-z0-9_-]+:\d+$/.test(r.text) && gameIds.has(r.text.split(':')[0])
        : r.kind === 'conclave_chat'
          ? /^[A-Za-z0-9_-]+:\d+:\d+$/.test(r.text) && gameIds.has(r.text.split(':')[0])
          : r.kind === 'conclave_lobbies' && /^[A-Za-z0-9_-]+$/.test(r.text);
    if (!ok)
      leaks.push({
        what: 'a NOTIFY payload that is not an id',
        marker: r.text,
        record: describe(r),
      });
  }
  return leaks;
}

function analyse(W) {
  const records = W.cap.records;
  const publicHex = collectPublicHex(records);
  const scan = scanMarkers(records, W.markers, publicHex);
  const leaks = [...scan.leaks];
  leaks.push(...checkNotify(records, new Set(W.games.map((g) => g.id))));
  // Each ruleset's own checks, game by game; totals: ruleset -> its
  // counts summed over its games.
  const totals = new Map();
  let privacy = 0;
  for (const c of CANARIES) {
    for (const ctx of W.games.filter((g) => g.ruleset === c.id)) {
      const leak = (what, r, extra) =>
        leaks.push({
          what: `${ctx.ruleset}: ${what}`,
          marker: extra,
          record: r ? describe(r) : `${ctx.tag} (WebSocket history)`,
        });
      if (c.privateParts) privacy += checkPrivateParts(ctx, leak);
      if (!c.check) continue;
      const { leaks: found = [], ...counts } = c.check(ctx, leak);
      leaks.push(...found);
      const t = totals.get(c.id) || {};
      for (const [k, n] of Object.entries(counts)) t[k] = (t[k] || 0) + n;
      totals.set(c.id, t);
    }
  }
  return { leaks, allowedSeen: scan.allowedSeen, totals, privacy };
}

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

test(
  'no hidden fact reaches anyone not entitled to it, by any path',
  { timeout: 600000 },
  async () => {
    console.log(`# canary seed ${SEED} (CANARY_SEED=${SEED} repeats the test's choices)`);
    const db = createDatabase('canary');
    let srv;
    const cap = new Capture(); // NOTIFY from before the server starts
    const notify = listenNotify(cap, db);
    const smtp = smtpSink();
    const hooks = hookSink();
    await smtp.listen();
    await hooks.listen();
    try {
      srv = await startServer({
        db,
        // Every audience of every game calls from 127.0.0.1 at once: lift the
        // per-address limits (requests and connections, HTTP and WebSocket).
        // The taps of games that ended early stay idle for minutes on a loaded
        // machine: pings (tested in hub.test.mjs) only every 5 minutes here.
        env: {
          CONCLAVE_RATE: '1000000',
          CONCLAVE_RATE_BURST: '1000000',
          CONCLAVE_HTTP_PER_IP: '4096',
          CONCLAVE_LOG_LEVEL: 'debug',
          ...WS_UNLIMITED,
          CONCLAVE_WS_PING: '300',
          // Notifications to every player, though each has the game open.
          CONCLAVE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
          CONCLAVE_NOTIFY_WHEN_ACTIVE: '1',
          CONCLAVE_NOTIFY_TICK_MS: '100',
        },
      });
      const W = new World(srv, db);
      W.cap = cap;
      W.hookPort = hooks.port;
      // The lobby feed, anonymous and as a player.
      const feedAnon = await W.tap(audience('lobby feed (anonymous)'));
      feedAnon.send({ type: 'subscribe_lobbies' });
      const feedPlayer = await W.tap(await W.player('feed'));
      feedPlayer.send({ type: 'subscribe_lobbies' });

      const plans = CANARIES.flatMap((c) => c.plans());
      const t0 = Date.now();
      await Promise.all(
        plans.map(async (plan) => {
          const ctx = await setupGame(W, plan);
          await probe(ctx);
          await talk(ctx);
          await ctx.canary.drive(ctx);
          await finish(ctx);
        }),
      );
      const playSeconds = (Date.now() - t0) / 1000;
      await sleep(300);
      for (const t of W.taps) t.close();
      await notify.stop();
      const exit = await srv.stop();
      for (const line of srv.lines) {
        W.cap.add({
          src: 'serverlog',
          aud: null,
          kind: 'line',
          game: null,
          version: null,
          text: line,
          json: null,
        });
      }
      srv = null;
      W.captureNotifications(smtp, hooks);

      // Sanity of the capture itself.
      const recs = W.cap.records;
      const bytes = recs.reduce((n, r) => n + Buffer.byteLength(r.text || ''), 0);
      const count = (f) => recs.filter(f).length;
      const by = (src) => count((r) => r.src === src);
      const crashed = recs.filter(
        (r) => r.src === 'serverlog' && /AddressSanitizer|runtime error|Segmentation/.test(r.text),
      );
      assert.equal(crashed.length, 0, crashed.map((r) => r.text).join('\n'));
      // A clean exit (under ASan: no leak report either).
      assert.equal(exit.code, 0, `the server exited with ${exit.code ?? exit.signal}`);

      const { leaks, allowedSeen, totals, privacy } = analyse(W);
      const mism = W.taps.reduce((n, t) => n + t.mismatches, 0);
      console.log(
        `# canary: ${W.games.length} games (${W.games.map((g) => g.tag).join(' ')}) played in ${playSeconds.toFixed(1)} s; ${W.stats.actions} human actions, ${W.stats.replaced} replaced and ${W.stats.withdrawn} withdrawn orders, ${W.stats.oracle} oracle probes, ${W.stats.fallbacks} sprint fallbacks`,
      );
      console.log(
        `# canary: captured ${recs.length} records, ${(bytes / 1e6).toFixed(1)} MB: REST ${by('rest')} (errors ${count((r) => r.kind === 'error')}), WebSocket ${by('ws')} (snapshots ${count((r) => r.kind === 'ws-snapshot')}, patches ${count((r) => r.kind === 'ws-patch')}, errors ${count((r) => r.kind === 'ws-error')}, lobby feed ${count((r) => r.kind === 'ws-lobbies' || r.kind === 'ws-lobby')}), NOTIFY ${by('notify')}, webhooks ${by('hook')}, mails ${by('mail')}, server log lines ${by('serverlog')}`,
      );
      console.log(
        `# canary: ${W.markers.all.length} markers (${[...new Set(W.markers.all.map((m) => m.kind))].map((k) => `${k} ${W.markers.all.filter((m) => m.kind === k).length}`).join(', ')}); revealed notes ${W.games.flatMap((g) => g.notes).filter((m) => m.revealed).length}`,
      );
      console.log(
        `# canary: seen where entitled: ${[...allowedSeen].map(([k, n]) => `${k} ${n}`).join(', ')}; patch chain mismatches ${mism}; WebSocket handshakes retried ${W.stats.wsRetries}`,
      );
      console.log(
        `# canary: documents checked: ${CANARIES.filter((c) => c.summary)
          .map((c) => `${c.id} ${c.summary(totals.get(c.id) || {})}`)
          .join('; ')}; private entries and held orders ${privacy}`,
      );
      const oracleKinds = new Set(W.games.flatMap((g) => g.oracle.map((o) => o.answers[0].norm)));
      console.log(
        `# canary: oracle refusals (card id blanked): ${[...oracleKinds].slice(0, 8).join(' / ')}`,
      );
      console.log(`# canary: leaks ${leaks.length}`);
      for (const l of leaks.slice(0, 40))
        console.log(`# LEAK ${l.what}: ${l.marker}\n#   ${l.record}`);

      // The capture saw what it should (so a quiet result means something).
      assert.ok(by('notify') > 0, 'NOTIFY payloads were captured');
      for (const ruleset of CANARIES.filter((c) => c.notified).map((c) => c.id)) {
        const ids = new Set(W.games.filter((g) => g.ruleset === ruleset).map((g) => g.id));
        assert.ok(
          count((r) => r.src === 'hook' && ids.has(r.game) && r.json.document) > 0,
          `${ruleset} webhook bodies were captured`,
        );
        assert.ok(
          count((r) => r.src === 'mail' && ids.has(r.game)) > 0,
          `${ruleset} mails were captured`,
        );
      }
      assert.ok(count((r) => r.kind === 'ws-patch') > 0, 'patches were captured');
      assert.ok(count((r) => r.kind === 'ws-lobbies') > 0, 'the lobby feed was captured');
      assert.ok(count((r) => r.kind === 'ws-error') > 0, 'WebSocket errors were captured');
      assert.ok(count((r) => r.kind === 'error') > 0, 'REST errors were captured');
      assert.ok(
        count((r) => r.src === 'notify' && r.kind === 'conclave_chat') > 0,
        'chat NOTIFY payloads were captured',
      );
      assert.ok(
        count((r) => r.src === 'ws' && r.json?.type === 'chat') > 0,
        'chat messages reached sockets',
      );
      for (const k of [
        'token',
        'seed',
        'invite',
        'chat',
        ...CANARIES.flatMap((c) => c.markers || []),
      ])
        assert.ok(allowedSeen.get(k) > 0, `positive control: ${k} markers seen where allowed`);
      for (const c of CANARIES) if (c.expect) c.expect(totals.get(c.id) || {});
      assert.equal(leaks.length, 0, `${leaks.length} leaks (see the # LEAK lines)`);
    } catch (e) {
      if (srv)
        console.log(
          `# server log (last lines):\n${srv.lines
            .slice(-15)
            .map((l) => `#   ${l}`)
            .join('\n')}\n# server exit: ${srv.proc.exitCode ?? srv.proc.signalCode ?? 'running'}`,
        );
      throw e;
    } finally {
      if (srv) await srv.stop();
      await notify.stop().catch(() => {});
      await smtp.close();
      await hooks.close();
      dropDatabase(db);
    }
  },
);

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
