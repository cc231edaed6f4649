// ws.js - the page's one WebSocket (subprotocol conclave.v1): sign-in on
// the connection, game subscriptions kept as {version, doc} and brought up
// to date by snapshots and JSON Patches, the lobby feed, a keep-alive ping,
// and automatic reconnection with backoff that resumes every subscription
// from the version held.
//
// The document a patch applies to is {"view": ..., "windows": [...]}, built
// from a snapshot's two members (API.md; server/hub/hub_game_feed.c).

import { applyPatch } from './jsonpatch.js';

const PING_EVERY = 15000; // ms between our pings
const PONG_WAIT = 8000; // no answer by then: the connection is dead
const BACKOFF_MIN = 400;
const BACKOFF_MAX = 5000;

// The WebSocket port: ?ws=PORT on the page's URL (kept for the tab in
// sessionStorage), else `ws_port` from GET /healthz when the server
// publishes it, else 8081 (API.md's default).
export async function resolveWsUrl() {
  const q = new URLSearchParams(location.search).get('ws');
  let port = /^[0-9]{1,5}$/.test(q || '') ? q : sessionStorage.getItem('conclave.ws');
  if (q && port === q) sessionStorage.setItem('conclave.ws', q);
  if (!port) {
    try {
      const r = await fetch('/healthz', { cache: 'no-store' });
      const j = await r.json();
      if (Number.isInteger(j.ws_port)) port = String(j.ws_port);
    } catch {
      /* the default below */
    }
  }
  if (!port) port = '8081';
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.hostname}:${port}/ws`;
}

// The port given on the URL (or kept for this tab), to carry in links.
export function wsPortParam() {
  const q = new URLSearchParams(location.search).get('ws');
  if (/^[0-9]{1,5}$/.test(q || '')) return q;
  return sessionStorage.getItem('conclave.ws');
}

export class Live {
  constructor(url, getToken) {
    this.url = url;
    this.getToken = getToken;
    this.ws = null;
    this.status = 'connecting'; // connecting | open | offline
    this.attempt = 0;
    this.retryAt = 0;
    this.games = new Map(); // id -> {version, doc, listeners:Set, errors:Set}
    this.lobbyListeners = new Set();
    this.turnsListeners = new Set(); // the inbox feed (web/inbox.js)
    this.statusListeners = new Set();
    this.chatListeners = new Set(); // table talk: {"type":"chat"} messages
    this.timers = { retry: 0, ping: 0, pong: 0 };
    this.frames = 0;
    this.stopped = false;
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  onStatus(fn) {
    this.statusListeners.add(fn);
    fn(this.status, this);
    return () => this.statusListeners.delete(fn);
  }

  // Table talk (chat.js): fn(msg) for every {"type":"chat","game",
  // "channel","seats","message"} of the games followed. Returns an unlisten.
  onChat(fn) {
    this.chatListeners.add(fn);
    return () => this.chatListeners.delete(fn);
  }

  setStatus(s) {
    this.status = s;
    for (const fn of this.statusListeners) fn(s, this);
  }

  connect() {
    clearTimeout(this.timers.retry);
    if (this.stopped) return;
    this.setStatus('connecting');
    let ws;
    try {
      ws = new WebSocket(this.url, 'conclave.v1');
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.openedAt = Date.now();
      const token = this.getToken();
      if (token) this.send({ type: 'auth', token });
      for (const [id, g] of this.games) this.sendSubscribe(id, g);
      if (this.lobbyListeners.size) this.send({ type: 'subscribe_lobbies' });
      if (token && this.turnsListeners.size) this.send({ type: 'subscribe_turns' });
      this.setStatus('open');
      this.schedulePing();
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      this.frames++;
      this.lastHeard = Date.now();
      clearTimeout(this.timers.pong);
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.handle(msg);
    };
    ws.onclose = () => {
      if (ws !== this.ws) return;
      this.ws = null;
      clearTimeout(this.timers.ping);
      clearTimeout(this.timers.pong);
      // A connection that lived a while starts the backoff over.
      if (this.openedAt && Date.now() - this.openedAt > 10000) this.attempt = 0;
      this.openedAt = 0;
      this.scheduleRetry();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  scheduleRetry() {
    if (this.stopped) return;
    const base = Math.min(BACKOFF_MAX, BACKOFF_MIN * 2 ** this.attempt);
    const delay = Math.round(base / 2 + Math.random() * (base / 2));
    this.attempt++;
    this.retryAt = Date.now() + delay;
    this.setStatus('offline');
    this.timers.retry = setTimeout(() => this.connect(), delay);
  }

  // Try again now (the "Reconnect" button).
  reconnectNow() {
    if (this.ws) return;
    this.attempt = 0;
    this.connect();
  }

  // Drop the connection and open a new one (the token changed: a
  // connection cannot change players).
  restart() {
    const old = this.ws;
    this.ws = null;
    if (old) {
      old.onclose = null;
      try {
        old.close(1000, 'new session');
      } catch {
        /* already closing */
      }
    }
    clearTimeout(this.timers.ping);
    clearTimeout(this.timers.pong);
    this.attempt = 0;
    // What a seat may see differs from what a spectator sees: start over.
    for (const g of this.games.values()) {
      g.version = null;
      g.doc = null;
    }
    this.connect();
  }

  schedulePing() {
    clearTimeout(this.timers.ping);
    this.timers.ping = setTimeout(() => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
      this.send({ type: 'ping' });
      this.timers.pong = setTimeout(() => {
        // Silent peer: close and reconnect.
        const ws = this.ws;
        if (ws) {
          this.ws = null;
          ws.onclose = null;
          try {
            ws.close();
          } catch {
            /* ignore */
          }
          this.scheduleRetry();
        }
      }, PONG_WAIT);
      this.schedulePing();
    }, PING_EVERY);
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  sendSubscribe(id, g) {
    const msg = { type: 'subscribe', game: id };
    if (g.doc && Number.isInteger(g.version)) msg.version = g.version;
    this.send(msg);
  }

  // Follow game `id`. `initial` ({version, view, windows}) may come from
  // GET /api/v1/games/{id}; the server then sends only what is newer.
  // onUpdate({version, view, windows}) runs on every change; onError(msg)
  // for the hub's errors about this game. Returns an unwatch function.
  watchGame(id, initial, onUpdate, onError) {
    let g = this.games.get(id);
    if (!g) {
      g = { version: null, doc: null, listeners: new Set(), errors: new Set() };
      this.games.set(id, g);
    }
    if (
      initial &&
      Number.isInteger(initial.version) &&
      (g.version === null || initial.version > g.version)
    ) {
      g.version = initial.version;
      g.doc = { view: initial.view, windows: initial.windows };
    }
    g.listeners.add(onUpdate);
    if (onError) g.errors.add(onError);
    this.sendSubscribe(id, g);
    return () => {
      g.listeners.delete(onUpdate);
      if (onError) g.errors.delete(onError);
      if (!g.listeners.size) {
        this.games.delete(id);
        this.send({ type: 'unsubscribe', game: id });
      }
    };
  }

  watchLobbies(fn) {
    this.lobbyListeners.add(fn);
    if (this.lobbyListeners.size === 1) this.send({ type: 'subscribe_lobbies' });
    return () => {
      this.lobbyListeners.delete(fn);
      // The hub has no "unsubscribe_lobbies": extra lobby messages are
      // simply ignored while nobody listens.
    };
  }

  // The signed-in player's inbox: fn({count, turns}) on each change (the
  // hub sends it again after every reconnect).
  watchTurns(fn) {
    this.turnsListeners.add(fn);
    if (this.turnsListeners.size === 1 && this.getToken()) this.send({ type: 'subscribe_turns' });
    return () => this.turnsListeners.delete(fn);
  }

  notify(id, g) {
    const state = { version: g.version, view: g.doc.view, windows: g.doc.windows };
    for (const fn of g.listeners) fn(state);
  }

  handle(msg) {
    switch (msg.type) {
      case 'snapshot': {
        const g = this.games.get(msg.game);
        if (!g) return;
        if (Number.isInteger(g.version) && g.doc && msg.version < g.version) return; // older than held
        g.version = msg.version;
        g.doc = { view: msg.view, windows: msg.windows };
        this.notify(msg.game, g);
        break;
      }
      case 'turns':
        for (const fn of this.turnsListeners) fn(msg);
        break;
      case 'patch': {
        const g = this.games.get(msg.game);
        if (!g) return;
        if (!g.doc || msg.from !== g.version) {
          // Old news, or a gap: ask again from what we hold.
          if (g.doc && msg.to <= g.version) return;
          this.sendSubscribe(msg.game, g);
          return;
        }
        try {
          g.doc = applyPatch(g.doc, msg.ops);
          g.version = msg.to;
        } catch (e) {
          console.warn('patch did not apply; asking for a snapshot', e);
          g.doc = null;
          g.version = null;
          this.sendSubscribe(msg.game, g);
          return;
        }
        this.notify(msg.game, g);
        break;
      }
      case 'chat':
        for (const fn of this.chatListeners) fn(msg);
        break;
      case 'lobbies':
      case 'lobby':
        for (const fn of this.lobbyListeners) fn(msg);
        break;
      case 'error': {
        const g = msg.game ? this.games.get(msg.game) : null;
        if (g) {
          for (const fn of g.errors) fn(msg);
          if (msg.status === 503)
            setTimeout(
              () => this.games.get(msg.game) === g && this.sendSubscribe(msg.game, g),
              1500,
            );
        } else if (this.onError) {
          this.onError(msg);
        }
        break;
      }
      default:
        break; // pong, and whatever a later server adds
    }
  }
}
