// suite.mjs - the canary's machinery (../canary.test.mjs describes what it
// checks): the capture of everything each audience receives (REST, the
// WebSocket, NOTIFY, mails and webhooks, server log lines), the world of
// players, lobbies and games, the checker, and the hidden-facts test itself.
// The test runs in two files side by side, each on the games of its group of
// rulesets (registry.mjs, playedBy): ../canary.test.mjs (with the checker's
// self-tests and the seat-set test) and ../canary_starbase_council.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import WebSocket from 'ws';
import jsonpatch from 'fast-json-patch';
import { createDatabase, dropDatabase, startServer, psql, sleep } from '../lib/server.mjs';
import { smtpSink, hookSink } from '../lib/notify_sinks.mjs';
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
} from './kit.mjs';
import { canaryOf, playedBy } from './registry.mjs';

// The WebSocket per-address limits, lifted like the HTTP ones (CONCLAVE_RATE...).
export const WS_UNLIMITED = {
  CONCLAVE_WS_IP_RATE: '1000000',
  CONCLAVE_WS_IP_RATE_BURST: '1000000',
  CONCLAVE_WS_AUTH_RATE: '1000000',
  CONCLAVE_WS_AUTH_BURST: '1000000',
};

export const now = () => performance.now();

// --------------------------------------------------------------- capture --

// A record is one thing one audience received:
// {src: 'rest'|'ws'|'notify'|'serverlog', aud, kind, game, version, status,
//  text, json, vlo, vhi}. kind: game, view, legal, log, export, ack, error,
// other, ws-snapshot, ws-patch, ws-error, ws-lobbies, ws-lobby, ws-other.
export class Capture {
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
export function audience(label, player = null) {
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

export class Markers {
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

export const sha256hex = (s) => createHash('sha256').update(s).digest('hex');

// ------------------------------------------------------------ the world --

export class World {
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
export function scanMarkers(records, markers, publicHex) {
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
export function checkNotify(records, gameIds) {
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

function analyse(W, canaries) {
  const records = W.cap.records;
  const publicHex = collectPublicHex(records);
  const scan = scanMarkers(records, W.markers, publicHex);
  const leaks = [...scan.leaks];
  leaks.push(...checkNotify(records, new Set(W.games.map((g) => g.id))));
  // Each ruleset's own checks, game by game; totals: ruleset -> its
  // counts summed over its games.
  const totals = new Map();
  let privacy = 0;
  for (const c of canaries) {
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

export function hiddenFactsTest(group) {
  const canaries = playedBy(group);
  test(
    'no hidden fact reaches anyone not entitled to it, by any path',
    {
      timeout: 600000,
      skip: canaries.length ? false : "CANARY_RULESETS names none of this file's rulesets",
    },
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

        const plans = canaries.flatMap((c) => c.plans());
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
          (r) =>
            r.src === 'serverlog' && /AddressSanitizer|runtime error|Segmentation/.test(r.text),
        );
        assert.equal(crashed.length, 0, crashed.map((r) => r.text).join('\n'));
        // A clean exit (under ASan: no leak report either).
        assert.equal(exit.code, 0, `the server exited with ${exit.code ?? exit.signal}`);

        const { leaks, allowedSeen, totals, privacy } = analyse(W, canaries);
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
          `# canary: documents checked: ${canaries
            .filter((c) => c.summary)
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
        for (const ruleset of canaries.filter((c) => c.notified).map((c) => c.id)) {
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
          ...canaries.flatMap((c) => c.markers || []),
        ])
          assert.ok(allowedSeen.get(k) > 0, `positive control: ${k} markers seen where allowed`);
        for (const c of canaries) if (c.expect) c.expect(totals.get(c.id) || {});
        assert.equal(leaks.length, 0, `${leaks.length} leaks (see the # LEAK lines)`);
      } catch (e) {
        if (srv)
          console.log(
            `# server log (last lines):\n${srv.lines
              .slice(-15)
              .map((l) => `#   ${l}`)
              .join(
                '\n',
              )}\n# server exit: ${srv.proc.exitCode ?? srv.proc.signalCode ?? 'running'}`,
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
}
