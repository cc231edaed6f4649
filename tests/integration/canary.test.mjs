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
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import jsonpatch from 'fast-json-patch';
import { createDatabase, dropDatabase, startServer, psql, sleep } from './lib/server.mjs';
import { seeded } from './lib/random.mjs';
import { smtpSink, hookSink } from './lib/notify_sinks.mjs';

// The WebSocket per-address limits, lifted like the HTTP ones above.
const WS_UNLIMITED = {
  CONCLAVE_WS_IP_RATE: '1000000', CONCLAVE_WS_IP_RATE_BURST: '1000000',
  CONCLAVE_WS_AUTH_RATE: '1000000', CONCLAVE_WS_AUTH_BURST: '1000000',
};

const QUICK = process.env.CONCLAVE_TEST_QUICK === '1'; // exactly "1", as in the C tests
const now = () => performance.now();

// ------------------------------------------------------------ randomness --

const SEED = Number(process.env.CANARY_SEED || randomBytes(4).readUInt32LE(0));
const rnd = seeded(SEED);
const pick = (arr) => arr[Math.floor(rnd() * arr.length)];
const chance = (p) => rnd() < p;
function sample(arr, n) {
  const a = [...arr];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, n);
}
const hex = (n) => randomBytes(n).toString('hex');

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
    throw new Error(`${aud.label}: ${method} ${p}: ${e.message} (${e.cause?.code ?? ''} ${e.cause?.message ?? ''})`);
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
    src: 'rest', aud, method, path: p, status: res.status, text: `${head}\n\n${text}`, json, game,
    kind: res.status >= 400 ? 'error' : kind, version, t0, t1: now(),
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
    const kind = ['snapshot', 'patch', 'error', 'lobbies', 'lobby'].includes(type) ? `ws-${type}` : 'ws-other';
    const version = type === 'snapshot' ? m.version : type === 'patch' ? m.to : null;
    const t = now();
    this.cap.add({ src: 'ws', aud: this.aud, kind, game: m?.game ?? null, version, text, json: m, t0: t, t1: t });
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
      if (this.closed) throw new Error(`${this.aud.label}: the connection closed while waiting for ${what}`);
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
      const m = /^Asynchronous notification "([^"]+)" with payload "(.*)" received from server process with PID \d+\.$/.exec(line);
      if (m) {
        seen.push({ channel: m[1], payload: m[2] });
        const t = now();
        cap.add({ src: 'notify', aud: null, kind: m[1], game: null, version: null, text: m[2], json: null, t0: t, t1: t });
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
    this.stats = { oracle: 0, fallbacks: 0, lateOrders: 0, replaced: 0, withdrawn: 0, actions: 0, wsRetries: 0 };
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
    const r = await this.call(aud, 'POST', '/api/v1/players', { body: password ? { name, password } : { name } });
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
    psql(this.db, `INSERT INTO notify_settings (player_id, email, email_verified) VALUES ('${id}', '${name.toLowerCase()}@example.test', true)`);
    const w = await this.call(aud, 'POST', '/api/v1/me/notifications/webhooks', { body: { url: `http://127.0.0.1:${this.hookPort}/hook/${name.toLowerCase()}` } });
    assert.equal(w.status, 201, w.text);
  }

  // Every mail and webhook body received, as records of their player.
  captureNotifications(smtp, hooks) {
    for (const p of hooks.posts) {
      const aud = this.byName.get(p.url.split('/').pop());
      // All headers but the signature (an HMAC: a 64-hex string by design).
      const head = Object.entries(p.headers).filter(([k]) => k !== 'conclave-signature').map(([k, v]) => `${k}: ${v}`).join('\n');
      this.cap.add({ src: 'hook', aud, kind: 'hook', game: p.body.game?.id ?? null, version: p.body.game?.version ?? null, text: `${head}\n\n${p.text}`, json: p.body });
    }
    for (const m of smtp.mails) {
      const aud = this.byName.get(m.to[0].split('@')[0]);
      const id = (/^Conclave-Notification-Id: (.*)$/im.exec(m.data) || [])[1] || '';
      const [game, version] = id.split(':');
      this.cap.add({ src: 'mail', aud, kind: 'mail', game: game || null, version: Number(version) || null, text: m.data, json: null });
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
    body: { ruleset, seats, ...(options ? { options } : {}), ...(isPrivate ? { private: true } : {}) },
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
      const j = await W.call(st.a, 'POST', `/api/v1/lobbies/${lobby.id}/seats`, { body: isPrivate ? { code: lobby.code } : {} });
      assert.equal(j.status, 200, j.text);
    } else {
      const b = await W.call(host, 'POST', `/api/v1/lobbies/${lobby.id}/bots`, { body: { level: st.level } });
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
  for (const value of [seed, seed.toUpperCase(), raw.toString('base64'), raw.toString('base64url')]) {
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
    W, id, ruleset, tag, seats, seatAud, spectator, anon, auds, lobby, seed,
    taps: new Map(), notes: [], bots: bots.length, oracle: [], orders: [],
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
  for (const t of ctx.taps.values()) await t.until(() => t.version(id) !== null, 10000, 'a snapshot');
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
  const chat = (aud, method, p, body) => W.call(aud, method, `/api/v1/games/${id}${p}`, { body, game: id, kind: 'chat' });
  const [[s0, a0]] = [...ctx.seatAud.entries()];
  const s1 = pick([...Array(ctx.seats).keys()].filter((s) => s !== s0));
  const members = new Set([s0, s1]);
  const marker = (seats) => W.markers.add({ kind: 'chat', value: `CNRYchat${hex(6)}`, game: id, seats });
  const open = await chat(a0, 'POST', '/channels', { seats: [s1] });
  assert.equal(open.status, 201, open.text);
  const cid = open.json.id;
  const said = await chat(a0, 'POST', `/channels/${cid}/messages`, { text: `psst ${marker(members).value}` });
  assert.equal(said.status, 201, said.text);
  const a1 = ctx.seatAud.get(s1);
  if (a1) assert.equal((await chat(a1, 'POST', `/channels/${cid}/messages`, { text: `deal ${marker(members).value}` })).status, 201);
  assert.equal((await chat(a0, 'POST', '/channels/0/messages', { text: `hello ${marker(null).value}` })).status, 201);
  const big = await chat(a0, 'POST', `/channels/${cid}/messages`, { text: `${marker(new Set()).value} ${'x'.repeat(2001)}` });
  assert.equal(big.status, 413, big.text);
  for (const a of ctx.auds) {
    const member = members.has(a.seats.get(id));
    await chat(a, 'GET', '/channels');
    await chat(a, 'GET', '/channels/0/messages');
    const r = await chat(a, 'GET', `/channels/${cid}/messages?limit=${1 + Math.floor(rnd() * 5)}`);
    assert.equal(r.status, member ? 200 : 404, `${a.label} reading the private channel: ${r.text}`);
    if (!member) {
      const p = await chat(a, 'POST', `/channels/${cid}/messages`, { text: `let me in ${marker(new Set()).value}` });
      assert.ok([401, 403, 404].includes(p.status), p.text);
      await chat(a, 'PUT', `/channels/${cid}/read`, { seq: 1 });
    }
  }
}

// Everything every audience can read about the game now, with the view
// read before and after the log (the log's state lies between).
async function probe(ctx) {
  const { W, id } = ctx;
  await Promise.all(
    ctx.auds.map(async (a) => {
      const v1 = await W.call(a, 'GET', `/api/v1/games/${id}/view`, { game: id, kind: 'view' });
      await W.call(a, 'GET', `/api/v1/games/${id}`, { game: id, kind: 'game' });
      await W.call(a, 'GET', `/api/v1/games/${id}/legal`, { game: id, kind: 'legal' });
      const after = chance(0.7) ? 0 : Math.floor(rnd() * 20);
      const lg = await W.call(a, 'GET', `/api/v1/games/${id}/log${after ? `?after=${after}` : ''}`, { game: id, kind: 'log' });
      const v2 = await W.call(a, 'GET', `/api/v1/games/${id}/view`, { game: id, kind: 'view' });
      lg.rec.vlo = v1.version;
      lg.rec.vhi = v2.version;
    }),
  );
}

// Requests that fail, from every audience; their bodies are captured.
async function errorProbes(ctx, window, held) {
  const { W, id } = ctx;
  const bad = {
    tictactoe: { cell: 42 }, rps: { throw: 'lizard' }, sprint: { action: 'warp' },
    skirmish: { action: 'teleport', unit: 99 }, starbase: { action: 'play', card: 9999 }, council: { card: 'nope' },
  }[ctx.ruleset];
  await Promise.all(
    ctx.auds.map(async (a) => {
      if (!chance(0.35)) return;
      const seat = a.seats.get(id);
      const w = window || 'r1';
      if (seat !== undefined) {
        if (!held.has(seat)) await W.call(a, 'DELETE', `/api/v1/games/${id}/orders/${w}`, { game: id });
        await W.call(a, 'PUT', `/api/v1/games/${id}/orders/${w}`, { game: id, body: bad });
        await W.call(a, 'POST', `/api/v1/games/${id}/plays`, {
          game: id, body: { window: w, ...bad }, headers: { 'idempotency-key': `bad-${hex(6)}` },
        });
      } else {
        await W.call(a, 'PUT', `/api/v1/games/${id}/orders/${w}`, { game: id, body: { throw: 'rock' } });
        await W.call(a, 'DELETE', `/api/v1/games/${id}/orders/${w}`, { game: id });
      }
      await W.call(a, 'GET', `/api/v1/games/${id}/log?after=zz`, { game: id });
      await W.call(a, 'GET', `/api/v1/games/${id}/export`, { game: id });
      await W.call(a, 'GET', `/api/v1/games/zz${hex(4)}`, { game: id });
    }),
  );
}

async function gameNow(ctx) {
  const r = await ctx.W.call(ctx.spectator, 'GET', `/api/v1/games/${ctx.id}`, { game: ctx.id, kind: 'game' });
  assert.equal(r.status, 200, r.text);
  return r.json;
}

// -------------------------------------------------------------- drivers --

async function driveTictactoe(ctx) {
  const { W, id } = ctx;
  const end = Date.now() + 60000;
  while (Date.now() < end) {
    const g = await gameNow(ctx);
    if (g.status !== 'running') return;
    const w = g.windows[0];
    const a = w && ctx.seatAud.get(w.seats[0]);
    if (!a) {
      await sleep(10);
      continue;
    }
    const free = g.view.board.map((c, i) => (c === null ? i : -1)).filter((i) => i >= 0);
    const r = await W.call(a, 'POST', `/api/v1/games/${id}/plays`, {
      game: id, kind: 'ack', body: { window: w.id, cell: pick(free) }, headers: { 'idempotency-key': `c-${hex(8)}` },
    });
    assert.equal(r.status, 200, r.text);
    W.stats.actions++;
    await probe(ctx);
    await errorProbes(ctx, w.id, new Set());
  }
  assert.fail(`${ctx.tag}: the game did not finish`);
}

// rps: each human seat orders with a note marker; some first order, then
// replace or withdraw (those notes must never be seen by anyone else).
async function driveRps(ctx) {
  const { W, id } = ctx;
  const end = Date.now() + 90000;
  const throwOf = () => pick(['rock', 'paper', 'scissors']);
  const note = (seat, w) => {
    const value = `CNRY${ctx.tag}s${seat}${w}x${hex(6)}`;
    const m = W.markers.add({ kind: 'note', value, game: id, seat, window: w });
    ctx.notes.push(m);
    return value;
  };
  while (Date.now() < end) {
    const g = await gameNow(ctx);
    if (g.status !== 'running') return;
    const w = g.windows[0];
    const unsent = [...ctx.seatAud.keys()].filter((s) => !w.submitted.includes(s));
    if (unsent.length === 0) {
      await sleep(10);
      continue;
    }
    const held = new Set(w.submitted);
    for (const seat of sample(unsent, unsent.length)) {
      const a = ctx.seatAud.get(seat);
      const put = (body) =>
        W.call(a, 'PUT', `/api/v1/games/${id}/orders/${w.id}`, { game: id, kind: 'ack', body });
      // Only an order that cannot lock the window may be replaced: another
      // human seat (which only this test moves) must still be missing. The
      // export says afterwards which note was revealed.
      const otherHumans = [...ctx.seatAud.keys()].filter((s) => s !== seat && !held.has(s));
      if (otherHumans.length > 0 && chance(0.6)) {
        const r = await put({ throw: throwOf(), note: note(seat, w.id) });
        assert.equal(r.status, 200, r.text);
        await probe(ctx);
        await errorProbes(ctx, w.id, new Set([...held, seat]));
        if (chance(0.5)) {
          const d = await W.call(a, 'DELETE', `/api/v1/games/${id}/orders/${w.id}`, { game: id });
          assert.equal(d.status, 204, d.text);
          W.stats.withdrawn++;
          await probe(ctx);
        } else {
          W.stats.replaced++;
        }
      }
      const body = { throw: throwOf() };
      if (chance(0.85)) body.note = note(seat, w.id);
      const r = await put(body);
      if (r.status === 409) {
        W.stats.lateOrders++; // the window locked meanwhile (a timeout cannot; a bug if seen)
      } else {
        assert.equal(r.status, 200, r.text);
      }
      held.add(seat);
      W.stats.actions++;
      await probe(ctx);
      await errorProbes(ctx, w.id, held);
    }
  }
  assert.fail(`${ctx.tag}: the game did not finish`);
}

const handIds = (doc) => (doc?.view?.hand || []).map((c) => c.id);
const empireIds = (doc) => (doc?.view?.players || []).flatMap((p) => (p.empire || []).map((c) => c.id));

// Does naming a card in another seat's hand get the same refusal as naming
// one in the deck (or a bot's hand)? Runs before seat `a` orders in a place
// window, so no hand can change meanwhile.
async function sprintOracle(ctx, a, seat, w, legal, hand) {
  const { W, id } = ctx;
  const pub = ctx.taps.get(ctx.anon).games.get(id).doc;
  const taken = new Set([...hand, ...empireIds(pub)]);
  const otherHands = [];
  for (const [s, oa] of ctx.seatAud) {
    if (s === seat) continue;
    for (const c of handIds(ctx.taps.get(oa).games.get(id).doc)) {
      otherHands.push(c);
      taken.add(c);
    }
  }
  // Ids of 12 and more, so that an id is not mistaken for a count when the
  // answers are compared with the id blanked out.
  const hidden = [];
  for (let c = 12; c < 110; c++) if (!taken.has(c)) hidden.push(c);
  const probes = [...sample(otherHands.filter((c) => c >= 12), 2), ...sample(hidden, 2)];
  if (probes.length < 2) return;
  // A legal placement paid with one card too foreign: the hand check, not
  // the count check, must refuse it.
  const paid = legal.windows[0].choices.filter((c) => c.cost >= 1);
  const withPay = paid.length ? pick(paid) : null;
  const shapes = [
    (c) => ({ action: 'develop', development: c }),
    (c) => ({ action: 'settle', world: c }),
    (c) => ({ action: 'both', development: c, world: c }),
  ];
  if (withPay) {
    const placed = new Set([withPay.development, withPay.world, withPay.convoy_world]);
    const own = hand.filter((x) => !placed.has(x));
    shapes.push((c) => {
      const o = { ...withPay, pay: [...own.slice(0, withPay.cost - 1), c] };
      delete o.cost;
      return o;
    });
  }
  for (const [k, shape] of shapes.entries()) {
    const answers = [];
    for (const c of probes) {
      const r = await W.call(a, 'PUT', `/api/v1/games/${id}/orders/${w}`, { game: id, body: shape(c) });
      assert.equal(r.status, 422, `${ctx.tag}: an order naming card ${c} (not in the hand) was not refused: ${r.text}`);
      const norm = `${r.json?.field ?? ''}|${String(r.json?.detail ?? '').replace(new RegExp(`\\b${c}\\b`, 'g'), '#')}`;
      answers.push({ c, where: otherHands.includes(c) ? 'other hand' : 'hidden', norm });
    }
    ctx.oracle.push({ shape: k, answers });
    W.stats.oracle++;
  }
}

// A random legal place order for a human seat, payment chosen at random.
function sprintPlaceOrder(ctx, seat, legal, hand) {
  const win = legal.windows[0];
  const c = pick(win.choices);
  const order = { ...c };
  delete order.cost;
  const placed = new Set([c.development, c.world, c.convoy_world].filter((x) => x !== undefined));
  const payFrom = hand.filter((x) => !placed.has(x));
  if (c.action !== 'explore') order.pay = sample(payFrom, c.cost);
  // New games (rules edition 2) name no rival: each rival card counts
  // its best opponent.
  return order;
}

async function driveSprint(ctx) {
  const { W, id } = ctx;
  const end = Date.now() + (QUICK ? 240000 : 150000);
  while (Date.now() < end) {
    const g = await gameNow(ctx);
    if (g.status !== 'running') return;
    let acted = false;
    for (const w of g.windows) {
      const unsent = w.seats.filter((s) => ctx.seatAud.has(s) && !w.submitted.includes(s));
      const held = new Set(w.submitted);
      for (const seat of sample(unsent, unsent.length)) {
        const a = ctx.seatAud.get(seat);
        const tap = ctx.taps.get(a);
        // Our own doc must be current before we read our hand from it.
        const lg = await W.call(a, 'GET', `/api/v1/games/${id}/legal`, { game: id, kind: 'legal' });
        assert.equal(lg.status, 200, lg.text);
        const win = lg.json.windows.find((x) => x.window === w.id);
        if (!win) continue;
        await tap.until(() => tap.version(id) >= lg.version, 10000, 'our own view');
        const hand = handIds(tap.games.get(id).hist.get(lg.version) || tap.games.get(id).doc);
        const put = (body) => W.call(a, 'PUT', `/api/v1/games/${id}/orders/${w.id}`, { game: id, kind: 'ack', body });
        let order;
        if (w.id.endsWith('.place')) {
          if (chance(0.3)) await sprintOracle(ctx, a, seat, w.id, lg.json, hand);
          order = sprintPlaceOrder(ctx, seat, lg.json, hand);
          // Sometimes an order first that is then replaced (if others are
          // still missing it cannot lock the window).
          const missing = w.seats.filter((s) => s !== seat && !held.has(s) && ctx.seatAud.has(s));
          if (missing.length && chance(0.3)) {
            const first = await put(sprintPlaceOrder(ctx, seat, lg.json, hand));
            if (first.status === 200) {
              W.stats.replaced++;
              await probe(ctx);
            }
          }
        } else {
          const n = win.choices?.[0]?.discard_count ?? win.shape.properties.discard.minItems;
          order = { discard: sample(hand, n) };
        }
        let r = await put(order);
        if (r.status === 422) {
          W.stats.fallbacks++;
          r = await put(w.id.endsWith('.place') ? { action: 'explore' } : { discard: sample(hand, win.shape.properties.discard.minItems) });
        }
        assert.equal(r.status, 200, `${ctx.tag} ${w.id} seat ${seat}: ${r.text} (order ${JSON.stringify(order)})`);
        held.add(seat);
        acted = true;
        W.stats.actions++;
        await probe(ctx);
        await errorProbes(ctx, w.id, held);
      }
    }
    if (!acted) await sleep(10);
  }
  assert.fail(`${ctx.tag}: the game did not finish`);
}

// ---- Skirmish, Starbase, Galactic Council: humans from their legal answers ----

const hexDist = (a, b) => {
  const dq = a.q - b.q;
  const dr = a.r - b.r;
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
};
const NEIGHBOURS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];

// Skirmish: a seat's home squares (seat 0 rows 1-3, seat 1 rows 4-6).
function skirmishSquares(seat, n) {
  const rows = seat === 0 ? ['1', '2', '3'] : ['4', '5', '6'];
  const all = [];
  for (const r of rows) for (const c of 'abcde') all.push(c + r);
  return sample(all, n);
}

// Council: an action order of one to three parts named by unique markers
// (part names are the seat's own; others learn only how many parts).
function councilOrder(ctx, seat, doc, window) {
  const { W, id } = ctx;
  const sectors = doc?.view?.galaxy?.sectors || [];
  if (/\.(lobby|council)$/.test(window)) {
    // The council's windows: a representative sent in secret (a spy names
    // a target) under a part name only this seat may ever see.
    const value = `cnry${hex(5)}`;
    W.markers.add({ kind: 'part', value, game: id, seat });
    if (window.endsWith('.lobby')) return { [value]: { type: 'objective', pick: 0 } };
    const seats = (doc?.view?.players || []).length || 3;
    const role = pick(['spy', 'bodyguard', 'councillor', 'clerk']);
    const rep = { type: 'representative', role };
    if (role === 'spy') rep.target = (seat + 1) % seats;
    return { [value]: rep };
  }
  const explored = sectors.filter((s) => s.explored);
  const frontier = sectors.filter((s) => !s.explored && explored.some((e) => hexDist(e, s) === 1));
  const order = {};
  const name = () => {
    const value = `cnry${hex(5)}`;
    W.markers.add({ kind: 'part', value, game: id, seat });
    return value;
  };
  const far = frontier.length && chance(0.7) ? pick(frontier) : null;
  if (far) order[name()] = [{ type: 'explore', sector: [far.q, far.r] }];
  for (const s of explored) {
    const mine = (s.fleets || []).find((f) => f.seat === seat && s.live);
    if (!mine || !chance(0.8)) continue;
    const to = pick(NEIGHBOURS.map(([dq, dr]) => ({ q: s.q + dq, r: s.r + dr })).filter((h) => sectors.some((x) => x.q === h.q && x.r === h.r)));
    if (!to) continue;
    const steps = [{ type: 'move', from: [s.q, s.r], to: [to.q, to.r], units: mine.units }, { type: 'inspect' }];
    if (chance(0.4)) {
      steps.push({ type: 'if', cond: { type: 'marker_is', is: 'hostile' }, then: [{ type: 'retreat', to: [s.q, s.r] }], else: [{ type: 'land', planet: 'all', troops: 'all' }] });
    } else {
      // Look and leave: the markers stay face down, known to this seat only
      // (a fleet that stays meets the system's marker, which turns it up).
      steps.push({ type: 'inspect', planet: pick(['highest_influence', 'highest_resources']) }, { type: 'retreat', to: [s.q, s.r] });
    }
    order[name()] = steps;
    if (Object.keys(order).length >= 3) break;
  }
  if (!Object.keys(order).length) order[name()] = [{ type: 'hold' }];
  return order;
}

// Plays (open windows) and orders (sealed windows) for every human seat
// from its legal answer until the game ends. A seat that has made `budget`
// plays only passes, or forfeits when that is offered (Starbase has no turn
// limit), so that the game ends in time.
async function driveLegal(ctx, { budget = Infinity, seconds = 120 } = {}) {
  const { W, id } = ctx;
  const end = Date.now() + seconds * 1000;
  const made = new Map();
  while (Date.now() < end) {
    const g = await gameNow(ctx);
    if (g.status !== 'running') return;
    let acted = false;
    for (const w of g.windows) {
      for (const seat of w.seats.filter((s) => ctx.seatAud.has(s) && !w.submitted.includes(s))) {
        const a = ctx.seatAud.get(seat);
        const tap = ctx.taps.get(a);
        const lg = await W.call(a, 'GET', `/api/v1/games/${id}/legal`, { game: id, kind: 'legal' });
        if (lg.status !== 200) continue;
        const win = lg.json.windows.find((x) => x.window === w.id);
        if (!win) continue;
        let r;
        if (win.kind === 'order') {
          await tap.until(() => tap.version(id) >= lg.version, 30000, 'our own view');
          const doc = tap.games.get(id).hist.get(lg.version) || tap.games.get(id).doc;
          if (doc?.view?.my_orders?.[w.id]) continue;
          let body;
          if (ctx.ruleset === 'skirmish' && w.id === 'deploy') body = { squares: skirmishSquares(seat, win.shape.properties.squares.minItems) };
          else if (ctx.ruleset === 'council') body = councilOrder(ctx, seat, doc, w.id);
          else body = pick(win.choices);
          // A window that waits for "ready" (Council's action phase): a
          // whole order sent at once is sent ready, as the page's "Send
          // orders" does after the last part.
          if (win.ready_part) body = { ...body, ready: true };
          ctx.orders.push({ seat, window: w.id, body });
          r = await W.call(a, 'PUT', `/api/v1/games/${id}/orders/${w.id}`, { game: id, kind: 'ack', body });
          if (r.status === 422) {
            W.stats.fallbacks++;
            const fallback = win.choices?.length ? pick(win.choices) : {};
            r = await W.call(a, 'PUT', `/api/v1/games/${id}/orders/${w.id}`, { game: id, kind: 'ack', body: win.ready_part ? { ...fallback, ready: true } : fallback });
          }
        } else {
          const n = made.get(seat) || 0;
          made.set(seat, n + 1);
          const others = (win.choices || []).filter((c) => c.action !== 'pass' && c.action !== 'forfeit');
          const forfeit = (win.choices || []).find((c) => c.action === 'forfeit');
          const pass = (win.choices || []).find((c) => c.action === 'pass');
          let body;
          if (n >= budget && (forfeit || pass)) body = forfeit || pass;
          else if (ctx.ruleset === 'council' || !others.length || chance(0.45)) body = pick((win.choices || []).filter((c) => c.action !== 'forfeit')) || { action: 'pass' };
          else body = pick(others);
          r = await W.call(a, 'POST', `/api/v1/games/${id}/plays`, {
            game: id, kind: 'ack', body: { window: w.id, ...body }, headers: { 'idempotency-key': `l-${hex(8)}` },
          });
        }
        if (r.status === 409 || r.status === 412) {
          W.stats.lateOrders++;
          continue;
        }
        assert.equal(r.status, 200, `${ctx.tag} ${w.id} seat ${seat}: ${r.text}`);
        acted = true;
        W.stats.actions++;
        if (chance(0.5)) await probe(ctx);
        if (chance(0.3)) await errorProbes(ctx, w.id, new Set([...w.submitted, seat]));
      }
    }
    if (!acted) await sleep(10);
  }
  assert.fail(`${ctx.tag}: the game did not finish`);
}

// After the end: wait for every tap to hold the final version, then read
// the game (now with its seed) and the export as every audience.
async function finish(ctx) {
  const { W, id } = ctx;
  const g = await gameNow(ctx);
  assert.notEqual(g.status, 'running');
  for (const t of ctx.taps.values()) await t.until(() => t.version(id) >= g.version, 30000, 'the final version');
  await probe(ctx);
  for (const a of ctx.auds) {
    const gr = await W.call(a, 'GET', `/api/v1/games/${id}`, { game: id, kind: 'game' });
    assert.equal(gr.json.seed, ctx.seed, 'the game resource shows the seed once the game is over');
    const ex = await W.call(a, 'GET', `/api/v1/games/${id}/export`, { game: id, kind: 'export' });
    assert.equal(ex.status, 200, ex.text);
    ctx.export = ex.json;
  }
  assert.equal(ctx.export.seed, ctx.seed);
  assert.equal(sha256hex(Buffer.from(ctx.seed, 'hex')), ctx.export.seed_sha256, 'the published seed_sha256 matches');
  ctx.finalVersion = g.version;
  // Which note was revealed, and at which version each window locked.
  ctx.lockVersion = new Map();
  const lastOrder = new Map(); // window/seat -> input
  for (const inp of ctx.export.inputs) {
    if (!inp.window) continue;
    if (inp.kind === 'order' || inp.kind === 'timeout') ctx.lockVersion.set(inp.window, inp.seq);
    if (inp.kind === 'order') lastOrder.set(`${inp.window}/${inp.seat}`, inp);
    if (inp.kind === 'system' && inp.payload?.action === 'withdraw') lastOrder.delete(`${inp.window}/${inp.seat}`);
  }
  // Council: every audience's whole log (its own entries and the public ones).
  ctx.logs = new Map();
  if (ctx.ruleset === 'council') {
    for (const a of ctx.auds) {
      const entries = [];
      for (let after = 0, i = 0; i < 100; i++) {
        const r = await W.call(a, 'GET', `/api/v1/games/${id}/log${after ? `?after=${after}` : ''}`, { game: id, kind: 'log' });
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
      return r.game === m.game && r.status === 200 &&
        ((r.kind === 'game' && r.json?.status && r.json.status !== 'running') || r.kind === 'export');
    case 'invite':
    case 'lobbyid':
      if (m.kind === 'lobbyid' && (r.src === 'notify' || r.src === 'serverlog')) return true; // ids only, to operators
      return !!player && m.lobby.members.has(player) && (r.src === 'rest' || r.src === 'ws');
    case 'chat':
      // Table talk: a private channel's members, or (seats null) every
      // audience of the game; never in an error, a NOTIFY or a log line.
      // A private message's notification (mail, webhook) goes to members.
      if ((r.src === 'hook' || r.src === 'mail') && m.seats !== null) return r.game === m.game && m.seats.has(r.aud?.seats.get(m.game));
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
      if (['game', 'view', 'legal', 'ack', 'ws-snapshot', 'ws-patch', 'hook'].includes(r.kind) && Number.isInteger(r.version)) {
        return r.version >= m.lock;
      }
      if (r.kind === 'log') {
        return (r.json?.entries || []).some((e) => e.entry?.type === 'reveal' && e.entry.window === m.window);
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
  const literals = markers.all.filter((m) => !m.value.startsWith('CNRY') && !/^[0-9A-Fa-f]{64}$/.test(m.value));
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
      else leaks.push({ what: 'unknown CNRY string (a marker cut or altered)', marker: x[0], record: describe(r) });
    }
    if (lit) for (const x of text.matchAll(lit)) seen(r, markers.byValue.get(x[0]));
    for (const x of text.matchAll(hex64)) {
      const h = x[0];
      const m = markers.byValue.get(h);
      if (m) seen(r, m);
      else if (!publicHex.has(h.toLowerCase())) leaks.push({ what: 'unexplained 64-hex string (seed, key or hash?)', marker: h, record: describe(r) });
    }
  }
  return { leaks, allowedSeen };
}

function describe(r) {
  const who = r.aud ? r.aud.label : r.src;
  const what = r.src === 'rest' ? `${r.method} ${r.path} -> ${r.status}` : `${r.src} ${r.kind}`;
  const body = String(r.text).split('\n\n').slice(-1)[0].replace(/\s+/g, ' ');
  return `${who}: ${what} (game ${r.game ?? '-'}, version ${r.version ?? '-'}): ${body.slice(0, 300)}`;
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

// ---- Galactic Sprint: card ids ----

const ID_KEYS = new Set(['development', 'world', 'convoy_world']);
const ID_LISTS = new Set(['pay', 'discard', 'hand', 'cards', 'placed', 'enum']);
// Lists that are only ever a seat's own: payments, discards, the hand, the
// cards drawn (and the enum of a legal discard shape).
const PRIVATE_LISTS = new Set(['pay', 'discard', 'hand', 'cards', 'enum']);

// Every card id in v: {path, id, list} (list: the key of the id list it is
// in, if any).
function cardIds(v, path = [], out = []) {
  if (Array.isArray(v)) {
    v.forEach((x, i) => cardIds(x, [...path, i], out));
  } else if (v && typeof v === 'object') {
    if (Number.isInteger(v.id) && typeof v.card === 'string') out.push({ path, id: v.id, card: v.card });
    for (const [k, x] of Object.entries(v)) {
      if (ID_KEYS.has(k) && Number.isInteger(x)) out.push({ path: [...path, k], id: x });
      else if (ID_LISTS.has(k) && Array.isArray(x)) {
        x.forEach((y, i) => {
          if (Number.isInteger(y)) out.push({ path: [...path, k, i], id: y, list: k });
          else cardIds(y, [...path, k, i], out);
        });
        if (PRIVATE_LISTS.has(k) && x.some((y) => Number.isInteger(y) || (y && typeof y === 'object'))) {
          out.push({ path: [...path, k], list: k, whole: true });
        }
      } else if (k !== 'id') cardIds(x, [...path, k], out);
    }
  }
  return out;
}

function pointer(p) {
  return p.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function checkSprint(ctx) {
  const leaks = [];
  let checked = 0;
  let skipped = 0;
  const { id } = ctx;
  const pubHist = ctx.taps.get(ctx.anon).games.get(id).hist;
  const specHist = ctx.taps.get(ctx.spectator).games.get(id).hist;
  const pubAt = (v) => pubHist.get(v) || specHist.get(v);
  const seatHist = new Map([...ctx.seatAud].map(([s, a]) => [s, ctx.taps.get(a).games.get(id).hist]));
  const pubIds = (v) => {
    const d = pubAt(v);
    return d ? new Set(empireIds(d)) : null;
  };
  const leak = (what, r, extra) => leaks.push({ what: `sprint: ${what}`, marker: extra, record: describe(r) });

  // The state itself: no card in two places.
  for (const [v, d] of pubHist) {
    const pub = new Set(empireIds(d));
    const owner = new Map();
    for (const [s, h] of seatHist) {
      for (const c of handIds(h.get(v))) {
        if (pub.has(c)) leaks.push({ what: 'sprint: a hand card is in an empire', marker: c, record: `version ${v}` });
        if (owner.has(c)) leaks.push({ what: 'sprint: a card in two hands', marker: c, record: `version ${v}` });
        owner.set(c, s);
      }
    }
  }

  // ids in a versioned document of audience a at version v.
  const checkDoc = (r, a, v, items, where) => {
    const seat = a.seats.get(id);
    const pub = pubIds(v);
    const own = seat !== undefined ? seatHist.get(seat).get(v) : null;
    if (!pub || (seat !== undefined && !own)) {
      skipped++;
      return;
    }
    checked++;
    const mine = new Set(handIds(own));
    for (const it of items) {
      const path = it.path.join('/');
      const ownPlace = seat !== undefined && (
        /^view\/my_orders\//.test(path) || /^my_orders\//.test(path) || where === 'legal');
      if (it.whole) {
        if (it.list === 'hand' && seat !== undefined && (path === 'view/hand' || path === 'hand')) continue;
        if ((it.list === 'pay' || it.list === 'discard' || it.list === 'enum') && ownPlace) continue;
        leak(`a "${it.list}" list at ${where} ${path}`, r, it.list);
        continue;
      }
      if (it.id === undefined) continue;
      if (pub.has(it.id)) continue;
      if (mine.has(it.id)) continue;
      leak(`card ${it.id} at ${where} ${path} is in no empire and not the audience's own`, r, it.id);
    }
  };

  for (const r of ctx.W.cap.records) {
    if (r.game !== id || !(r.src === 'rest' || r.src === 'ws' || r.src === 'hook') || !r.json) continue;
    const a = r.aud;
    if (r.kind === 'export') continue;
    if (r.kind === 'hook' && Number.isInteger(r.version)) {
      checkDoc(r, a, r.version, cardIds(r.json.document || {}), 'hook');
      catalogue(r, r.json.document?.view || {}, leak);
    } else if (r.kind === 'view' && Number.isInteger(r.version)) {
      checkDoc(r, a, r.version, cardIds(r.json, ['view']), 'view');
      catalogue(r, r.json, leak);
    } else if (r.kind === 'game' && Number.isInteger(r.version)) {
      checkDoc(r, a, r.version, cardIds(r.json), 'game');
      catalogue(r, r.json.view, leak);
    } else if (r.kind === 'legal' && Number.isInteger(r.version)) {
      checkDoc(r, a, r.version, cardIds(r.json), 'legal');
    } else if (r.kind === 'ws-snapshot') {
      checkDoc(r, a, r.version, cardIds({ view: r.json.view, windows: r.json.windows }), 'snapshot');
      catalogue(r, r.json.view, leak);
    } else if (r.kind === 'ws-patch') {
      const items = [];
      for (const op of r.json.ops || []) {
        if (!('value' in op)) continue;
        const p = pointer(op.path);
        const last = p[p.length - 1];
        const v = op.value;
        if (typeof last === 'number' && ID_LISTS.has(p[p.length - 2]) && Number.isInteger(v)) {
          items.push({ path: p, id: v, list: p[p.length - 2] });
        } else if (typeof last === 'string' && (ID_KEYS.has(last) || last === 'id') && Number.isInteger(v)) {
          items.push({ path: p, id: v });
        } else if (typeof last === 'string' && ID_LISTS.has(last) && Array.isArray(v)) {
          items.push(...cardIds({ [last]: v }, p.slice(0, -1)));
        } else {
          items.push(...cardIds(v, p));
        }
      }
      checkDoc(r, a, r.version, items, 'patch');
    } else if (r.kind === 'ack' || r.kind === 'error' || r.kind.startsWith('ws-')) {
      const items = cardIds(r.json).filter((it) => it.whole);
      for (const it of items) leak(`a "${it.list}" list in ${r.kind}`, r, it.list);
    } else if (r.kind === 'log') {
      const seat = a.seats.get(id);
      const lo = r.vlo ?? 0;
      const hi = r.vhi ?? ctx.finalVersion;
      const pub = new Set();
      for (let v = lo; v <= hi; v++) for (const c of pubIds(v) || []) pub.add(c);
      checked++;
      for (const e of r.json.entries || []) {
        if (e.seat !== null && e.seat !== undefined) {
          if (e.seat !== seat) leak(`a private log entry of seat ${e.seat}`, r, e.seq);
          continue; // the seat's own: entitled forever
        }
        for (const it of cardIds(e.entry, ['entry'])) {
          if (it.whole) leak(`a "${it.list}" list in a public log entry`, r, it.list);
          else if (it.id !== undefined && !pub.has(it.id)) leak(`card ${it.id} in a public log entry is in no empire`, r, it.id);
        }
      }
    }
  }

  // The oracle: the refusal must not depend on where a hidden card is.
  for (const o of ctx.oracle) {
    const norms = new Set(o.answers.map((x) => x.norm));
    if (norms.size > 1) {
      leaks.push({
        what: 'sprint: a refusal depends on where a hidden card is',
        marker: o.shape,
        record: o.answers.map((x) => `${x.c} (${x.where}): ${x.norm}`).join(' | '),
      });
    }
  }
  return { leaks, checked, skipped };
}

// The design catalogue of a view names only designs the view references.
function catalogue(r, view, leak) {
  if (!view || !view.cards) return;
  const refs = new Set(cardIds(view).filter((x) => x.card).map((x) => x.card));
  if (view.survey_card) refs.add(view.survey_card);
  for (const key of Object.keys(view.cards)) {
    if (!refs.has(key)) leak(`the catalogue names design "${key}" that nothing in the view shows`, r, key);
  }
}

// ---- Skirmish, Starbase, Galactic Council: the checks ----

// Every document audience a held, by version: its tap's history (every
// snapshot and every patched version) and its REST views and game
// resources. Calls f(doc, version, record-or-null, where).
function eachDoc(ctx, a, f) {
  const { id } = ctx;
  const hist = ctx.taps.get(a).games.get(id)?.hist || new Map();
  for (const [v, d] of hist) f(d, v, null, 'ws');
  for (const r of ctx.W.cap.records) {
    if (r.game !== id || r.aud !== a || !r.json || !Number.isInteger(r.version)) continue;
    if (r.src === 'hook' && r.json.document) f(r.json.document, r.version, r, 'hook');
    if (r.src !== 'rest') continue;
    if (r.kind === 'view') f({ view: r.json }, r.version, r, 'view');
    else if (r.kind === 'game') f({ view: r.json.view, windows: r.json.windows }, r.version, r, 'game');
  }
}

// Private log entries reach their seats only; no spectator document
// carries held orders.
function checkPrivateParts(ctx, leak) {
  let checked = 0;
  for (const r of ctx.W.cap.records) {
    if (r.game !== ctx.id || r.kind !== 'log' || !r.json) continue;
    const seat = r.aud.seats.get(ctx.id);
    checked++;
    for (const e of r.json.entries || []) {
      if (Array.isArray(e.seats) && !e.seats.includes(seat)) leak(`a log entry for seats ${e.seats}`, r, e.seq);
      else if (e.seat !== null && e.seat !== undefined && e.seat !== seat) leak(`a private log entry of seat ${e.seat}`, r, e.seq);
    }
  }
  for (const a of [ctx.spectator, ctx.anon]) {
    eachDoc(ctx, a, (d, v, r) => {
      checked++;
      if (d?.view?.my_orders && Object.keys(d.view.my_orders).length) leak('held orders in a spectator document', r, v);
    });
  }
  return checked;
}

// Skirmish: before the muster locks no squad is in any document (not even
// the seat's own: the state holds none), before the deployment locks no
// unit stands on a square.
function checkSkirmish(ctx, leak) {
  const muster = ctx.lockVersion.get('muster') ?? Infinity;
  const deploy = ctx.lockVersion.get('deploy') ?? Infinity;
  let checked = 0;
  for (const a of ctx.auds) {
    eachDoc(ctx, a, (d, v, r, where) => {
      const view = d?.view;
      if (!view) return;
      checked++;
      const units = view.units || [];
      if (v < muster && (units.length || (view.squads || []).length)) leak(`a squad at version ${v} before the muster locked (${muster}) in ${where}`, r, `${a.label} ${units.map((u) => u.key).join(',')}`);
      if (v < deploy && units.some((u) => u.square)) leak(`a square at version ${v} before the deployment locked (${deploy}) in ${where}`, r, a.label);
    });
  }
  return checked;
}

// Starbase: every card object (id, key, price) a document shows at version
// v is public at v (in the public view) or in the audience's own hand at v;
// a legal answer's card ids likewise; card ids of public log entries were
// public at some version.
function checkStarbase(ctx, leak) {
  const { id } = ctx;
  const pubHist = ctx.taps.get(ctx.anon).games.get(id).hist;
  const specHist = ctx.taps.get(ctx.spectator).games.get(id).hist;
  const cardObjs = (v, out = []) => {
    if (Array.isArray(v)) v.forEach((x) => cardObjs(x, out));
    else if (v && typeof v === 'object') {
      if (Number.isInteger(v.id) && typeof v.key === 'string' && Number.isInteger(v.price)) out.push(v);
      for (const x of Object.values(v)) cardObjs(x, out);
    }
    return out;
  };
  const pubIds = new Map();
  const pubAt = (v) => {
    if (!pubIds.has(v)) {
      const d = pubHist.get(v) || specHist.get(v);
      pubIds.set(v, d ? new Set(cardObjs(d.view).map((c) => c.id)) : null);
    }
    return pubIds.get(v);
  };
  const everPublic = new Set();
  for (const d of [...pubHist.values(), ...specHist.values()]) for (const c of cardObjs(d.view)) everPublic.add(c.id);
  let checked = 0;
  let skipped = 0;
  for (const a of ctx.auds) {
    const seat = a.seats.get(id);
    const own = seat !== undefined ? ctx.taps.get(a).games.get(id).hist : null;
    const mineAt = (v) => (own ? (own.get(v) ? new Set((own.get(v).view.hand || []).map((c) => c.id)) : null) : new Set());
    const check = (ids, v, r, where) => {
      const pub = pubAt(v);
      const mine = mineAt(v);
      if (!pub || !mine) {
        skipped++;
        return;
      }
      checked++;
      for (const c of ids) if (!pub.has(c) && !mine.has(c)) leak(`card ${c} in ${where} at version ${v} is neither public nor in ${a.label}'s hand`, r, c);
    };
    eachDoc(ctx, a, (d, v, r, where) => {
      const view = d?.view;
      if (!view) return;
      if (Array.isArray(view.hand) && seat === undefined) leak(`a hand list in a spectator ${where}`, r, v);
      const count = (view.players || []).find((p) => p.seat === seat)?.hand;
      if (Array.isArray(view.hand) && Number.isInteger(count) && view.hand.length !== count) leak(`${a.label}'s hand lists ${view.hand.length} cards, its count is ${count}`, r, v);
      for (const p of view.players || []) if (!Number.isInteger(p.hand) || !Number.isInteger(p.market)) leak(`player ${p.seat}'s hand or market is not a count`, r, v);
      check(cardObjs(view).map((c) => c.id), v, r, where);
    });
    for (const r of ctx.W.cap.records) {
      if (r.game !== id || r.aud !== a || r.kind !== 'legal' || !r.json || !Number.isInteger(r.version)) continue;
      const ids = [];
      for (const w of r.json.windows || []) for (const c of w.choices || []) if (Number.isInteger(c.card)) ids.push(c.card);
      check(ids, r.version, r, 'legal');
      if (seat === undefined && (r.json.windows || []).length) leak('legal moves for a spectator', r, r.version);
    }
  }
  // Where a public card of a human seat came from: a market card is drawn
  // into its owner's hand before it can be played, so a card of seat A that
  // is public at v and not before was in A's hand in between; at the first
  // version the only public cards are the outer region stacks.
  const pubVersions = [...pubHist.keys()].sort((x, y) => x - y);
  let prev = null;
  for (const v of pubVersions) {
    const cur = new Map(cardObjs(pubHist.get(v).view).map((c) => [c.id, c]));
    for (const [cid, c] of cur) {
      if (prev?.set.has(cid)) continue;
      if (!prev) {
        if (c.kind !== 'outer_region') leak(`card ${cid} (${c.kind}) public at the first version ${v}`, null, cid);
        continue;
      }
      const a = ctx.seatAud.get(c.owner);
      if (!a) continue; // a bot's hand is not seen
      const h = ctx.taps.get(a).games.get(id).hist;
      const seen = [];
      for (let u = prev.v; u < v; u++) if (h.has(u)) seen.push((h.get(u).view.hand || []).some((x) => x.id === cid));
      // Only when the seat's tap held every version in between (the hub may
      // send one patch for several versions).
      if (seen.length === v - prev.v && !seen.some(Boolean)) leak(`card ${cid} of seat ${c.owner} public at version ${v} without passing through its hand`, null, cid);
    }
    prev = { v, set: new Set(cur.keys()) };
  }
  // No card in two hands at once (a hand list holding another's cards).
  const owner = new Map(); // version -> Map(card -> seat)
  for (const [seat, a] of ctx.seatAud) {
    for (const [v, d] of ctx.taps.get(a).games.get(id).hist) {
      if (!owner.has(v)) owner.set(v, new Map());
      for (const c of d.view?.hand || []) {
        const o = owner.get(v);
        if (o.has(c.id)) leak(`card ${c.id} in the hands of seats ${o.get(c.id)} and ${seat} at version ${v}`, null, c.id);
        o.set(c.id, seat);
      }
    }
  }
  for (const r of ctx.W.cap.records) {
    if (r.game !== id || r.kind !== 'log' || !r.json) continue;
    for (const e of r.json.entries || []) {
      if (e.seat !== null && e.seat !== undefined) continue;
      for (const c of cardObjs(e.entry)) if (!everPublic.has(c.id)) leak(`card ${c.id} in a public log entry was never public`, r, c.id);
      if (Number.isInteger(e.entry?.card) && !everPublic.has(e.entry.card)) leak(`card ${e.entry.card} in a public log entry was never public`, r, e.entry.card);
    }
  }
  return { checked, skipped };
}

// Council: what each audience may know of the galaxy. Marker identities:
// a spectator only face-up ones (a public "marker" log entry), a seat
// those and the ones its own private "inspected" entries name; explored
// sectors agree across audiences at each version and an unexplored one is
// bare; spectators see no units and no "you"; a seat sees units live only
// within its sensor range. (What a seat remembers is not checked: a fleet
// can see a sector in passing within one resolution.)
function checkCouncil(ctx, leak) {
  const { id } = ctx;
  const markerAt = (q, r, p) => `${q},${r},${p}`;
  const known = new Map(); // audience -> Map(place -> key)
  const publicKnown = new Map();
  for (const [a, entries] of ctx.logs) {
    for (const e of entries) {
      const x = e.entry;
      if (!x || !x.marker || !Array.isArray(x.sector)) continue;
      const place = markerAt(x.sector[0], x.sector[1], x.planet ?? -1);
      if (x.type === 'marker' && (e.seat === null || e.seat === undefined)) publicKnown.set(place, x.marker);
      else if (x.type === 'inspected' && e.seat === a.seats.get(id)) {
        if (!known.has(a)) known.set(a, new Map());
        known.get(a).set(place, x.marker);
      } else if (e.seat === null || e.seat === undefined) leak(`a public "${x.type}" log entry names a marker`, null, place);
    }
  }
  const stats = { checked: 0, privateSeen: 0, publicSeen: 0, live: 0 };
  const explored = new Map(); // version -> Map(sector -> bool) from the public views
  for (const a of [ctx.anon, ctx.spectator]) {
    for (const [v, d] of ctx.taps.get(a).games.get(id).hist) {
      if (!explored.has(v)) explored.set(v, new Map((d.view.galaxy?.sectors || []).map((s) => [`${s.q},${s.r}`, s.explored])));
    }
  }
  const bare = new Set(['q', 'r', 'explored']);
  for (const a of ctx.auds) {
    const seat = a.seats.get(id);
    const mine = seat === undefined ? new Map() : known.get(a) || new Map();
    eachDoc(ctx, a, (d, v, r, where) => {
      const view = d?.view;
      if (!view?.galaxy) return;
      stats.checked++;
      const what = `${a.label} ${where} v${v}`;
      if (seat === undefined && view.you) leak(`"you" in a spectator document`, r, what);
      if (seat !== undefined && view.you && view.you.seat !== seat) leak(`seat ${view.you.seat}'s "you" shown to ${a.label}`, r, what);
      const pub = explored.get(v);
      const sources = [];
      for (const s of view.galaxy.sectors) {
        if (s.explored && ((s.fleets || []).some((f) => f.seat === seat && s.live) || (s.planets || []).some((p) => p.owner === seat))) sources.push(s);
      }
      const me = (view.players || []).find((p) => p.seat === seat);
      const range = 1 + (me?.race === 'thessari' ? 1 : 0) + ((me?.techs || []).includes('sensor_mesh') ? 1 : 0);
      for (const s of view.galaxy.sectors) {
        const key = `${s.q},${s.r}`;
        if (pub && pub.has(key) && pub.get(key) !== s.explored) leak(`sector ${key} explored=${s.explored} for ${a.label} but ${pub.get(key)} in public at v${v}`, r, what);
        if (!s.explored) {
          const extra = Object.keys(s).filter((k) => !bare.has(k));
          if (extra.length) leak(`unexplored sector ${key} shows ${extra.join(',')}`, r, what);
          continue;
        }
        if (seat === undefined && ('fleets' in s || (s.planets || []).some((p) => 'troops' in p))) leak(`units in a spectator document at ${key}`, r, what);
        if (s.live) {
          stats.live++;
          if (!sources.some((x) => hexDist(x, s) <= range)) leak(`sector ${key} seen live out of sensor range ${range}`, r, what);
        }
        const markers = [[s.marker, -1], ...(s.planets || []).map((p, i) => [p.marker, i])];
        for (const [m, i] of markers) {
          if (m === null || m === undefined || m === 'hidden') continue;
          const place = markerAt(s.q, s.r, i);
          if (publicKnown.get(place) === m.key) {
            stats.publicSeen++;
          } else if (mine.get(place) === m.key) {
            stats.privateSeen++;
          } else {
            leak(`marker ${m.key} at ${place} shown to ${a.label}, who never inspected it (and it is not face up)`, r, what);
          }
        }
      }
    });
  }
  return stats;
}

function checkNotify(records, gameIds) {
  const leaks = [];
  for (const r of records.filter((x) => x.src === 'notify')) {
    const ok = r.kind === 'conclave_games'
      ? /^[A-Za-z0-9_-]+:\d+$/.test(r.text) && gameIds.has(r.text.split(':')[0])
      : r.kind === 'conclave_chat'
        ? /^[A-Za-z0-9_-]+:\d+:\d+$/.test(r.text) && gameIds.has(r.text.split(':')[0])
        : r.kind === 'conclave_lobbies' && /^[A-Za-z0-9_-]+$/.test(r.text);
    if (!ok) leaks.push({ what: 'a NOTIFY payload that is not an id', marker: r.text, record: describe(r) });
  }
  return leaks;
}

function analyse(W) {
  const records = W.cap.records;
  const publicHex = collectPublicHex(records);
  const scan = scanMarkers(records, W.markers, publicHex);
  const leaks = [...scan.leaks];
  leaks.push(...checkNotify(records, new Set(W.games.map((g) => g.id))));
  let sprintChecked = 0;
  let sprintSkipped = 0;
  for (const ctx of W.games.filter((g) => g.ruleset === 'sprint')) {
    const s = checkSprint(ctx);
    leaks.push(...s.leaks);
    sprintChecked += s.checked;
    sprintSkipped += s.skipped;
  }
  const more = { skirmish: 0, starbase: 0, starbaseSkipped: 0, council: 0, councilPrivate: 0, councilPublic: 0, councilLive: 0, privacy: 0 };
  for (const ctx of W.games.filter((g) => ['skirmish', 'starbase', 'council'].includes(g.ruleset))) {
    const leak = (what, r, extra) => leaks.push({ what: `${ctx.ruleset}: ${what}`, marker: extra, record: r ? describe(r) : `${ctx.tag} (WebSocket history)` });
    more.privacy += checkPrivateParts(ctx, leak);
    if (ctx.ruleset === 'skirmish') more.skirmish += checkSkirmish(ctx, leak);
    if (ctx.ruleset === 'starbase') {
      const s = checkStarbase(ctx, leak);
      more.starbase += s.checked;
      more.starbaseSkipped += s.skipped;
    }
    if (ctx.ruleset === 'council') {
      const s = checkCouncil(ctx, leak);
      more.council += s.checked;
      more.councilPrivate += s.privateSeen;
      more.councilPublic += s.publicSeen;
      more.councilLive += s.live;
    }
  }
  return { leaks, allowedSeen: scan.allowedSeen, sprintChecked, sprintSkipped, more };
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
  const note = markers.add({ kind: 'note', value: 'CNRYself1', game: 'g', seat: 0, window: 'r1', revealed: true, lock: 5 });
  const hidden = markers.add({ kind: 'note', value: 'CNRYself2', game: 'g', seat: 0, window: 'r1', revealed: false, lock: 5 });
  void note;
  void hidden;
  const rec = (aud, kind, version, text, json = null, extra = {}) =>
    cap.add({ src: 'rest', aud, kind, game: 'g', version, status: 200, text, json, method: 'GET', path: '/x', ...extra });
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
  cap.add({ src: 'ws', aud: B, kind: 'ws-other', game: 'g', text: '{"type":"chat","text":"CNRYchatp"}' }); // leak
  rec(A, 'error', null, 'CNRYchatp', null, { status: 413 }); // leak: echoed in an error
  cap.add({ src: 'serverlog', aud: null, kind: 'line', game: null, text: 'CNRYchatq' }); // leak
  // Private-message notifications: to a member (allowed), to a non-member
  // (leak); a public message is never in a notification (leak).
  cap.add({ src: 'mail', aud: A, kind: 'mail', game: 'g', version: 3, text: 'From x: CNRYchatp' }); // allowed
  cap.add({ src: 'hook', aud: B, kind: 'hook', game: 'g', version: 3, text: '{"text":"CNRYchatp"}' }); // leak
  cap.add({ src: 'mail', aud: A, kind: 'mail', game: 'g', version: 3, text: 'From x: CNRYchatq' }); // leak
  const { leaks, allowedSeen } = scanMarkers(cap.records, markers, new Set());
  assert.equal(leaks.length, 12, JSON.stringify(leaks, null, 1));
  assert.equal(allowedSeen.get('note'), 3);
  assert.equal(allowedSeen.get('chat'), 4);
  // Sprint: a hand card of seat 1 in seat 0's view; a pay list in public.
  const ids = cardIds({ view: { hand: [{ id: 3, card: 'x' }], players: [{ empire: [{ id: 7, card: 'y' }] }], my_orders: { w: { pay: [3] } } } });
  assert.deepEqual(ids.filter((x) => x.id !== undefined).map((x) => x.id).sort(), [3, 3, 7]);
  assert.ok(ids.some((x) => x.whole && x.list === 'pay'));
  const n = checkNotify([{ src: 'notify', kind: 'conclave_games', text: 'g:3' }, { src: 'notify', kind: 'conclave_games', text: 'g:3 CNRYx' }, { src: 'notify', kind: 'conclave_chat', text: 'g:1:4' }, { src: 'notify', kind: 'conclave_chat', text: 'g:1:4:hello' }], new Set(['g']));
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
    for (const a of [A, B, S, N]) taps.set(a, { games: new Map([['g', { hist: new Map(Object.entries(docs.get(a) || {}).map(([v, d]) => [Number(v), d])) }]]) });
    return {
      id: 'g', ruleset, taps, auds: [A, B, S, N], anon: N, spectator: S, seatAud: new Map([[0, A], [1, B]]),
      W: { cap: { records: [] } }, lockVersion: new Map(), logs: new Map(), ...extra,
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
  const sk = fake('skirmish', new Map([
    [B, { 1: unit(null), 3: unit('c4'), 5: unit('c4') }],
    [N, { 0: { view: { units: [], squads: [] } } }],
  ]), { lockVersion: new Map([['muster', 2], ['deploy', 4]]) });
  assert.equal(found(sk, checkSkirmish).length, 2);
  // Starbase: card 3 is seat 0's; seat 1 shows it, so does the spectator.
  const card = (id) => ({ id, key: 'k', price: 1 });
  const pub = { view: { players: [{ seat: 0, hand: 1, market: 20, dock: [card(7)] }, { seat: 1, hand: 1, market: 20 }] } };
  const sb = fake('starbase', new Map([
    [N, { 1: pub, 2: { view: { ...pub.view, regions: [{ ships: [{ ...card(8), owner: 0, kind: 'ship' }] }] } } }],
    [S, { 1: { view: { ...pub.view, regions: [{ ships: [card(3)] }] } } }],
    [A, { 1: { view: { ...pub.view, hand: [card(3)] } } }],
    [B, { 1: { view: { ...pub.view, hand: [card(3)] } } }],
  ]));
  // card 3 in two hands, the spectator's card 3, card 7 public at the
  // first version (not an outer region), card 8 of seat 0 public at
  // version 2 straight from its market
  const sl = found(sb, checkStarbase);
  assert.equal(sl.length, 4, sl.join('\n'));
  // Council: raiders at (1,0) face up, relics at (0,1) planet 0 inspected
  // by seat 0; seat 1 and the spectator show the relics; seat 1 sees an
  // unexplored sector's tile.
  const sector = (extra) => ({ q: 0, r: 1, explored: true, marker: { key: 'raiders' }, planets: [{ owner: null, marker: { key: 'relics' } }], ...extra });
  const view = (s, seat) => ({ view: { galaxy: { sectors: s }, players: [], ...(seat === undefined ? {} : { you: { seat } }) } });
  const raiders = { q: 1, r: 0, explored: true, marker: { key: 'raiders' }, planets: [] };
  const cn = fake('council', new Map([
    [N, { 1: view([{ ...raiders }, { q: 0, r: 1, explored: true, marker: 'hidden', planets: [{ marker: 'hidden' }] }, { q: 2, r: 0, explored: false }]) }],
    [S, { 1: view([{ ...raiders }, sector({ marker: 'hidden' }), { q: 2, r: 0, explored: false }]) }],
    [A, { 1: view([{ ...raiders, fleets: [], planets: [{ owner: 0, marker: null }] }, sector({ marker: 'hidden', fleets: [] }), { q: 2, r: 0, explored: false }], 0) }],
    [B, { 1: view([{ ...raiders, fleets: [], planets: [{ owner: 1, marker: null }] }, sector({ marker: 'hidden', fleets: [] }), { q: 2, r: 0, explored: false, tile: 't' }], 1) }],
  ]));
  const entry = (seat, type, q, r, planet, marker) => ({ seq: 1, seat, entry: { type, sector: [q, r], planet, marker } });
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

test('no hidden fact reaches anyone not entitled to it, by any path', { timeout: 600000 }, async () => {
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
        CONCLAVE_RATE: '1000000', CONCLAVE_RATE_BURST: '1000000', CONCLAVE_HTTP_PER_IP: '4096', CONCLAVE_LOG_LEVEL: 'debug',
        ...WS_UNLIMITED,
        CONCLAVE_WS_PING: '300',
        // Notifications to every player, though each has the game open.
        CONCLAVE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, CONCLAVE_NOTIFY_WHEN_ACTIVE: '1', CONCLAVE_NOTIFY_TICK_MS: '100',
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

    const target = () => (QUICK ? 20 : 25 + Math.floor(rnd() * 11));
    const bot = () => pick(['random', 'basic']);
    const plans = [
      { ruleset: 'tictactoe', humans: 2, tag: 'T1', isPrivate: true },
      { ruleset: 'tictactoe', humans: 1, bots: [bot()], tag: 'T2' },
      { ruleset: 'rps', humans: 2, options: { rounds: QUICK ? 3 : 6 + Math.floor(rnd() * 4) }, tag: 'R1' },
      { ruleset: 'rps', humans: 2, options: { rounds: 3 }, tag: 'R2', isPrivate: true },
      { ruleset: 'rps', humans: 1, bots: [bot()], options: { rounds: QUICK ? 3 : 6 }, tag: 'R3' },
      { ruleset: 'sprint', humans: 1, options: {}, tag: 'S1' },
      { ruleset: 'sprint', humans: 2, bots: [bot()], options: { target_vp: target() }, tag: 'S3' },
      { ruleset: 'sprint', humans: 2, bots: [bot(), bot()], options: { target_vp: target() }, tag: 'S4' },
      ...(QUICK ? [] : [
        { ruleset: 'sprint', humans: 2, options: { target_vp: target() }, tag: 'S2' },
        { ruleset: 'sprint', humans: 3, bots: [bot()], options: { target_vp: target() }, tag: 'S5', isPrivate: true },
        { ruleset: 'sprint', humans: 1, options: {}, tag: 'S6' },
      ]),
      { ruleset: 'skirmish', humans: 2, options: { turn_limit: QUICK ? 4 : 6 }, tag: 'K1' },
      { ruleset: 'skirmish', humans: 1, bots: [bot()], options: { turn_limit: 6 }, tag: 'K2', isPrivate: true },
      { ruleset: 'starbase', humans: 2, bots: [bot()], tag: 'B1' },
      { ruleset: 'starbase', humans: 1, bots: [bot()], tag: 'B2' },
      { ruleset: 'council', humans: 2, bots: [bot()], options: { last_round: 3 }, tag: 'C1' },
      { ruleset: 'council', humans: 3, options: { last_round: 2 }, tag: 'C2', isPrivate: true },
    ];
    const drivers = {
      tictactoe: driveTictactoe, rps: driveRps, sprint: driveSprint,
      skirmish: (ctx) => driveLegal(ctx, { budget: QUICK ? 20 : 40, seconds: 300 }),
      starbase: (ctx) => driveLegal(ctx, { budget: QUICK ? 15 : 30, seconds: 300 }),
      council: (ctx) => driveLegal(ctx, { seconds: 300 }),
    };
    const t0 = Date.now();
    await Promise.all(
      plans.map(async (plan) => {
        const ctx = await setupGame(W, plan);
        await probe(ctx);
        await talk(ctx);
        await drivers[plan.ruleset](ctx);
        await finish(ctx);
      }),
    );
    const playSeconds = (Date.now() - t0) / 1000;
    await sleep(300);
    for (const t of W.taps) t.close();
    await notify.stop();
    const exit = await srv.stop();
    for (const line of srv.lines) {
      W.cap.add({ src: 'serverlog', aud: null, kind: 'line', game: null, version: null, text: line, json: null });
    }
    srv = null;
    W.captureNotifications(smtp, hooks);

    // Sanity of the capture itself.
    const recs = W.cap.records;
    const bytes = recs.reduce((n, r) => n + Buffer.byteLength(r.text || ''), 0);
    const count = (f) => recs.filter(f).length;
    const by = (src) => count((r) => r.src === src);
    const crashed = recs.filter((r) => r.src === 'serverlog' && /AddressSanitizer|runtime error|Segmentation/.test(r.text));
    assert.equal(crashed.length, 0, crashed.map((r) => r.text).join('\n'));
    // A clean exit (under ASan: no leak report either).
    assert.equal(exit.code, 0, `the server exited with ${exit.code ?? exit.signal}`);

    const { leaks, allowedSeen, sprintChecked, sprintSkipped, more } = analyse(W);
    const mism = W.taps.reduce((n, t) => n + t.mismatches, 0);
    console.log(`# canary: ${W.games.length} games (${W.games.map((g) => g.tag).join(' ')}) played in ${playSeconds.toFixed(1)} s; ${W.stats.actions} human actions, ${W.stats.replaced} replaced and ${W.stats.withdrawn} withdrawn orders, ${W.stats.oracle} oracle probes, ${W.stats.fallbacks} sprint fallbacks`);
    console.log(`# canary: captured ${recs.length} records, ${(bytes / 1e6).toFixed(1)} MB: REST ${by('rest')} (errors ${count((r) => r.kind === 'error')}), WebSocket ${by('ws')} (snapshots ${count((r) => r.kind === 'ws-snapshot')}, patches ${count((r) => r.kind === 'ws-patch')}, errors ${count((r) => r.kind === 'ws-error')}, lobby feed ${count((r) => r.kind === 'ws-lobbies' || r.kind === 'ws-lobby')}), NOTIFY ${by('notify')}, webhooks ${by('hook')}, mails ${by('mail')}, server log lines ${by('serverlog')}`);
    console.log(`# canary: ${W.markers.all.length} markers (${[...new Set(W.markers.all.map((m) => m.kind))].map((k) => `${k} ${W.markers.all.filter((m) => m.kind === k).length}`).join(', ')}); revealed notes ${W.games.flatMap((g) => g.notes).filter((m) => m.revealed).length}`);
    console.log(`# canary: seen where entitled: ${[...allowedSeen].map(([k, n]) => `${k} ${n}`).join(', ')}; sprint documents checked ${sprintChecked} (skipped ${sprintSkipped}); patch chain mismatches ${mism}; WebSocket handshakes retried ${W.stats.wsRetries}`);
    console.log(`# canary: skirmish documents checked ${more.skirmish}; starbase ${more.starbase} (skipped ${more.starbaseSkipped}); council ${more.council} (marker identities seen: face up ${more.councilPublic}, inspected by the seat ${more.councilPrivate}; live sectors ${more.councilLive}); private entries and held orders ${more.privacy}`);
    const oracleKinds = new Set(W.games.flatMap((g) => g.oracle.map((o) => o.answers[0].norm)));
    console.log(`# canary: oracle refusals (card id blanked): ${[...oracleKinds].slice(0, 8).join(' / ')}`);
    console.log(`# canary: leaks ${leaks.length}`);
    for (const l of leaks.slice(0, 40)) console.log(`# LEAK ${l.what}: ${l.marker}\n#   ${l.record}`);

    // The capture saw what it should (so a quiet result means something).
    assert.ok(by('notify') > 0, 'NOTIFY payloads were captured');
    for (const ruleset of ['rps', 'sprint', 'skirmish', 'starbase', 'council']) {
      const ids = new Set(W.games.filter((g) => g.ruleset === ruleset).map((g) => g.id));
      assert.ok(count((r) => r.src === 'hook' && ids.has(r.game) && r.json.document) > 0, `${ruleset} webhook bodies were captured`);
      assert.ok(count((r) => r.src === 'mail' && ids.has(r.game)) > 0, `${ruleset} mails were captured`);
    }
    assert.ok(count((r) => r.kind === 'ws-patch') > 0, 'patches were captured');
    assert.ok(count((r) => r.kind === 'ws-lobbies') > 0, 'the lobby feed was captured');
    assert.ok(count((r) => r.kind === 'ws-error') > 0, 'WebSocket errors were captured');
    assert.ok(count((r) => r.kind === 'error') > 0, 'REST errors were captured');
    assert.ok(count((r) => r.src === 'notify' && r.kind === 'conclave_chat') > 0, 'chat NOTIFY payloads were captured');
    assert.ok(count((r) => r.src === 'ws' && r.json?.type === 'chat') > 0, 'chat messages reached sockets');
    for (const k of ['token', 'seed', 'note', 'invite', 'part', 'chat']) assert.ok(allowedSeen.get(k) > 0, `positive control: ${k} markers seen where allowed`);
    assert.ok(sprintChecked > 100, `sprint documents checked: ${sprintChecked}`);
    assert.ok(more.skirmish > 50 && more.starbase > 50 && more.council > 50, `documents checked: ${JSON.stringify(more)}`);
    assert.ok(more.councilPublic + more.councilPrivate > 0, 'positive control: Council marker identities seen where allowed');
    assert.equal(leaks.length, 0, `${leaks.length} leaks (see the # LEAK lines)`);
  } catch (e) {
    if (srv) console.log(`# server log (last lines):\n${srv.lines.slice(-15).map((l) => `#   ${l}`).join('\n')}\n# server exit: ${srv.proc.exitCode ?? srv.proc.signalCode ?? 'running'}`);
    throw e;
  } finally {
    if (srv) await srv.stop();
    await notify.stop().catch(() => {});
    await smtp.close();
    await hooks.close();
    dropDatabase(db);
  }
});

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
    game: g.id, kind: 'ack', body, headers: { 'idempotency-key': `s-${hex(8)}` },
  });
  assert.equal(r.status, 200, r.text);
  g.live = r.json.version;
  g.played[g.live] = tSent;
  g.sentAt[g.live] = g.sentAt[g.live - 1] + (body.to.length ? 1 : 0);
  // What every seat can read now (seat 1 must never read a {0,2} entry).
  for (const a of g.bySeat) {
    for (const path of ['', '/view', '/log']) await W.call(a, 'GET', `/api/v1/games/${g.id}${path}`, { game: g.id });
  }
}

// Everything a spectator and the anonymous caller can read now, checked
// against the versions delay: never above live - versions.
async function spectatorReads(W, g, versions) {
  for (const a of [g.spectator, g.anon]) {
    const bound = Math.max(0, g.live - versions);
    const game = await W.call(a, 'GET', `/api/v1/games/${g.id}`, { game: g.id });
    assert.equal(game.status, 200, game.text);
    assert.ok(game.json.version <= bound, `${a.label}: version ${game.json.version} with live ${g.live}`);
    assert.equal(game.json.view.sent, g.sentAt[game.json.version]);
    const view = await W.call(a, 'GET', `/api/v1/games/${g.id}/view`, { game: g.id });
    assert.ok(view.json.inputs <= bound, `${a.label}: view at ${view.json.inputs} with live ${g.live}`);
    assert.equal(view.version, view.json.inputs, 'the ETag names the version shown');
    const log = await W.call(a, 'GET', `/api/v1/games/${g.id}/log`, { game: g.id });
    const sent = log.json.entries.filter((e) => e.entry.type === 'sent').length;
    assert.ok(sent <= g.sentAt[bound], `${a.label}: ${sent} sent entries in the log at live ${g.live}`);
    for (const e of log.json.entries) assert.ok(e.seat === null && !e.seats, JSON.stringify(e));
  }
}

test('seat-set entries reach their seats only; delayed spectators never see a version early', { timeout: 120000 }, async () => {
  const db = createDatabase('canary_sets');
  let srv;
  try {
    srv = await startServer({
      db,
      env: { CONCLAVE_EXAMPLE_RULESETS: '1', CONCLAVE_RATE: '1000000', CONCLAVE_RATE_BURST: '1000000', CONCLAVE_LOG_LEVEL: 'debug', ...WS_UNLIMITED },
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
        if (v !== null && gv.liveUpper < 9 && v > Math.max(0, gv.liveUpper - V)) early.push(`${t.aud.label}: ${v} at live <= ${gv.liveUpper}`);
        orig(text);
      };
    }
    for (let turn = 0; turn < 9; turn++) {
      await signalsTurn(W, gv, turn, markers);
      if (turn < 8) await spectatorReads(W, gv, V);
    }
    assert.deepEqual(early, []);
    // Over: the versions delay ends; the spectators reach the end.
    for (const a of [gv.spectator, gv.anon]) {
      const t = gv.taps.get(a);
      await t.until(() => t.version(gv.id) === 9, 10000, 'the last version');
    }
    const ex = await W.call(gv.spectator, 'GET', `/api/v1/games/${gv.id}/export`, { game: gv.id });
    assert.equal(ex.status, 200, ex.text);

    // A seconds delay: each version reaches spectators 2 s after its input
    // was sent at the earliest, the export too.
    const S = 2;
    const gs = await signalsGame(W, 'SS', { seconds: S }, 3);
    for (let turn = 0; turn < 3; turn++) {
      await signalsTurn(W, gs, turn, markers);
      const r = await W.call(gs.spectator, 'GET', `/api/v1/games/${gs.id}`, { game: gs.id });
      assert.ok(r.json.version < gs.live, `version ${r.json.version} right after input ${gs.live}`);
      assert.equal(r.json.status, 'running');
    }
    const exEarly = await W.call(gs.anon, 'GET', `/api/v1/games/${gs.id}/export`, { game: gs.id });
    assert.equal(exEarly.status, 403, exEarly.text);
    const exSeat = await W.call(gs.bySeat[1], 'GET', `/api/v1/games/${gs.id}/export`, { game: gs.id });
    assert.equal(exSeat.status, 200, exSeat.text);
    for (const a of [gs.spectator, gs.anon]) {
      const t = gs.taps.get(a);
      await t.until(() => t.version(gs.id) === 3, 10000, 'the last version');
    }
    await sleep(200);
    const late = await W.call(gs.anon, 'GET', `/api/v1/games/${gs.id}/export`, { game: gs.id });
    assert.equal(late.status, 200, late.text);
    const fin = await W.call(gs.spectator, 'GET', `/api/v1/games/${gs.id}`, { game: gs.id });
    assert.equal(fin.json.version, 3);
    assert.equal(fin.json.status, 'finished');
    for (const r of W.cap.records) {
      if (r.game !== gs.id || r.version === null || r.version === undefined || r.version === 0) continue;
      if (r.aud !== gs.spectator && r.aud !== gs.anon) continue;
      if (r.src === 'rest' && r.kind !== 'game') continue;
      const sent = gs.played[r.version];
      assert.ok(r.t1 >= sent + S * 1000 - 5, `${r.aud.label} ${r.kind} at version ${r.version} ${(r.t1 - sent).toFixed(0)} ms after its input`);
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
        assert.ok(seat >= 0 && m.seats.has(seat), `marker for seats {0,2} reached ${r.aud?.label ?? r.src}: ${r.text.slice(0, 200)}`);
        seen.set(seat, (seen.get(seat) || 0) + 1);
      }
    }
    assert.ok(seen.get(0) > 0 && seen.get(2) > 0, 'positive control: seats 0 and 2 saw the markers');
    const exit = await srv.stop();
    srv = null;
    assert.equal(exit.code, 0);
  } catch (e) {
    if (srv) console.log(`# server log (last lines):\n${srv.lines.slice(-15).map((l) => `#   ${l}`).join('\n')}`);
    throw e;
  } finally {
    if (srv) await srv.stop();
    dropDatabase(db);
  }
});
