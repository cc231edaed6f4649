// ws.mjs - a small client for the WebSocket hub (API.md, "WebSocket"), used
// by the hub tests: it keeps, per game, the document {view, windows} and the
// version it holds, applying snapshots and patches the way a real client
// should (a patch only when its `from` equals the version held).
import WebSocket from 'ws';
import jsonpatch from 'fast-json-patch';
import { randomBytes } from 'node:crypto';
import { http } from './server.mjs';

export const PROTOCOL = 'conclave.v1';

export class HubClient {
  constructor(ws) {
    this.ws = ws;
    this.messages = []; // every parsed message, in order
    this.texts = []; // every raw text frame, in order
    this.games = new Map(); // game id -> {version, doc}
    this.lobbies = null; // Map id -> lobby, after "lobbies"
    this.errors = [];
    this.mismatches = []; // patches whose `from` was not the version held
    this.counts = { snapshot: 0, patch: 0 };
    this.closed = null; // {code, reason} once closed
    this.waiters = [];
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
    ws.on('error', () => {}); // 'close' follows
  }

  // Open a connection; rejects with the HTTP status when the upgrade is refused.
  // localAddress: the client socket's own address (another loopback
  // address, for a client the server must tell apart from 127.0.0.1).
  static connect(
    url,
    { origin, protocol = PROTOCOL, autoPong = true, headers, localAddress } = {},
  ) {
    return new Promise((resolve, reject) => {
      const opts = { autoPong, headers: { ...(headers || {}) } };
      if (origin) opts.origin = origin;
      if (localAddress) opts.localAddress = localAddress;
      const ws = protocol ? new WebSocket(url, protocol, opts) : new WebSocket(url, opts);
      const client = new HubClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (req, res) => {
        const err = new Error(`upgrade refused: ${res.statusCode}`);
        err.status = res.statusCode;
        req.destroy();
        reject(err);
      });
      ws.once('error', (e) => reject(e));
    });
  }

  onMessage(data, isBinary) {
    const text = data.toString();
    this.texts.push(text);
    let m;
    try {
      m = JSON.parse(text);
    } catch {
      this.errors.push({ type: 'error', status: 0, detail: `unparsable: ${text}` });
      this.wake();
      return;
    }
    if (isBinary) m.binary = true;
    this.messages.push(m);
    if (m.type === 'snapshot') {
      this.counts.snapshot++;
      this.games.set(m.game, { version: m.version, doc: { view: m.view, windows: m.windows } });
    } else if (m.type === 'patch') {
      this.counts.patch++;
      const g = this.games.get(m.game);
      if (!g || g.version !== m.from) {
        this.mismatches.push({ game: m.game, held: g ? g.version : null, from: m.from, to: m.to });
      } else {
        // validate=true: a patch that does not apply throws, failing the test
        g.doc = jsonpatch.applyPatch(g.doc, m.ops, true, false).newDocument;
        g.version = m.to;
      }
    } else if (m.type === 'lobbies') {
      this.lobbies = new Map(m.lobbies.map((l) => [l.id, l]));
    } else if (m.type === 'lobby') {
      if (this.lobbies) {
        if (m.lobby.status === 'open') this.lobbies.set(m.lobby.id, m.lobby);
        else this.lobbies.delete(m.lobby.id);
      }
    } else if (m.type === 'error') {
      this.errors.push(m);
    }
    this.wake();
  }

  wake() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  send(obj) {
    this.ws.send(typeof obj === 'string' ? obj : JSON.stringify(obj));
  }

  // Resolve once fn() is truthy (checked now and after every message).
  async until(fn, { timeout = 10000, what = 'condition' } = {}) {
    const end = Date.now() + timeout;
    for (;;) {
      const v = fn();
      if (v) return v;
      const left = end - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  version(game) {
    const g = this.games.get(game);
    return g ? g.version : null;
  }

  doc(game) {
    const g = this.games.get(game);
    return g ? g.doc : null;
  }

  // The next message of `type` after index `from` (default: any new one).
  async next(type, { from = this.messages.length, timeout = 10000 } = {}) {
    let found;
    await this.until(
      () => {
        found = this.messages.slice(from).find((m) => m.type === type);
        return found;
      },
      { timeout, what: `a "${type}" message` },
    );
    return found;
  }

  async waitClosed({ timeout = 10000 } = {}) {
    await this.until(() => this.closed, { timeout, what: 'the connection to close' });
    return this.closed;
  }

  close() {
    if (!this.closed) this.ws.close();
  }

  // Stop reading from the socket (a slow consumer), and start again.
  pause() {
    this.ws.pause();
  }

  resume() {
    this.ws.resume();
  }
}

// ---- REST set-up shared by the hub tests ----

// A new guest player: {id, name, token}.
export async function newPlayer(base, prefix = 'p') {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const r = await http(base, 'POST', '/api/v1/players', { body: { name } });
  if (r.status !== 201) throw new Error(`POST /players: ${r.status} ${r.text}`);
  return r.body;
}

// A started game between the given players (the first hosts; body extends
// the lobby: options, clock, private). Returns the game id.
export async function newGame(base, ruleset, players, body = {}) {
  const [host, ...others] = players;
  const lobby = await http(base, 'POST', '/api/v1/lobbies', {
    token: host.token,
    body: { ruleset, seats: players.length, ...body },
  });
  if (lobby.status !== 201) throw new Error(`POST /lobbies: ${lobby.status} ${lobby.text}`);
  for (const p of others) {
    const r = await http(base, 'POST', `/api/v1/lobbies/${lobby.body.id}/seats`, {
      token: p.token,
      body: body.private ? { code: lobby.body.invite_code } : {},
    });
    if (r.status !== 200) throw new Error(`POST /seats: ${r.status} ${r.text}`);
  }
  const start = await http(base, 'POST', `/api/v1/lobbies/${lobby.body.id}/start`, {
    token: host.token,
    body: {},
  });
  if (start.status !== 201) throw new Error(`POST /start: ${start.status} ${start.text}`);
  return start.body.game;
}

// GET /api/v1/games/{id} for a player (or a spectator when token is null).
export async function getGame(base, game, token) {
  const r = await http(base, 'GET', `/api/v1/games/${game}`, { token });
  if (r.status !== 200) throw new Error(`GET /games: ${r.status} ${r.text}`);
  return r.body;
}

let keys = 0;
// POST a play with a fresh Idempotency-Key; returns the response.
export function play(base, game, token, body) {
  return http(base, 'POST', `/api/v1/games/${game}/plays`, {
    token,
    body,
    headers: { 'idempotency-key': `k${process.pid}-${++keys}-${randomBytes(4).toString('hex')}` },
  });
}

export function order(base, game, token, window, body) {
  return http(base, 'PUT', `/api/v1/games/${game}/orders/${window}`, { token, body });
}

// Stop a server and check it shut down cleanly (exit 0: under the
// sanitizers that also means no leak and no error report).
export async function stopClean(server) {
  const { code, signal } = await server.stop();
  if (code !== 0) {
    const tail = server.lines
      .filter((l) => !l.includes('"http_request"'))
      .slice(-40)
      .join('\n');
    throw new Error(`conclave exited with ${code ?? signal}:\n${tail}`);
  }
}
