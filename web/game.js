// game.js - the game screen's controller, shared by every ruleset: loads
// GET /api/v1/games/{id}, follows the game on the WebSocket (snapshots and
// patches of {view, windows}), reads the log (GET /log?after=SEQ) and the
// legal choices (GET /legal) as they change, refreshes the status and
// result when the game ends, and hands a model to the ruleset's renderer
// (its table in games/ID/, found through games/registry.js).
// Players act through the controller: sealed orders (PUT/DELETE
// /orders/{window}) and open plays (POST /plays with an Idempotency-Key).

import { api, ApiError, randomKey, session } from './api.js';
import { h, render, toast, announce } from './ui.js';
import { tickCountdown, seatName, OUTAGE_TEXT, isOutage } from './gamekit.js';
import { loadGame } from './games/registry.js';
import { chatPanel } from './chat.js';
import { howtoButton } from './howto.js';
import { rematchButton } from './rematch.js';
import { signInBox } from './account.js';
import { replayButton } from './replay.js';

export function gameScreen(main, ctx, id) {
  const c = new GameController(main, ctx, id);
  c.start();
  return c;
}

class GameController {
  constructor(main, ctx, id) {
    this.main = main;
    this.ctx = ctx;
    this.id = id;
    this.meta = null; // the game resource (status, seats, you, result ...)
    this.version = null;
    this.view = null;
    this.windows = [];
    this.log = []; // [{seq, seat, entry}]
    this.logSeq = 0;
    this.legal = null; // {window, data}
    this.error = null;
    this.destroyed = false;
    this.renderer = null;
    this.timers = [];
    this.root = h('div.game');
    this.bar = h('div.game-tools'); // above the table: "Talk", "How to play"
    render(main, this.root, h('p.muted', { id: 'game-loading' }, 'Loading the game…'));
  }

  get you() {
    return this.meta ? this.meta.you : null;
  }

  seatName(i) {
    return seatName(this.meta && this.meta.seats, i);
  }

  async start() {
    await this.loadMeta();
    if (this.destroyed) return;
    this.unwatch = this.ctx.live.watchGame(
      this.id,
      this.meta
        ? { version: this.meta.version, view: this.meta.view, windows: this.meta.windows }
        : null,
      (s) => this.onState(s),
      (err) => {
        if (err.status === 404) {
          this.error = new ApiError(404, { detail: 'There is no such game.' });
          this.draw();
        }
      },
    );
    let wasOpen = this.ctx.live.status === 'open';
    this.unstatus = this.ctx.live.onStatus((s) => {
      // Back online: catch up with what REST knows (log, result).
      const reopened = s === 'open' && !wasOpen;
      wasOpen = s === 'open';
      if (reopened && this.pending) this.resend();
      if (reopened && this.meta) {
        this.fetchLog();
        if (this.meta.status === 'running') this.loadMeta();
      }
    });
    this.timers.push(
      setInterval(() => this.root.querySelectorAll('[data-deadline]').forEach(tickCountdown), 1000),
    );
  }

  async loadMeta(tries = 0) {
    try {
      const g = await api.game(this.id);
      if (this.destroyed) return;
      const first = !this.meta;
      const youChanged = this.meta && this.meta.you !== g.you;
      this.meta = g;
      this.error = null;
      if (first || this.version === null || g.version > this.version) {
        this.version = g.version;
        this.view = g.view;
        this.windows = g.windows;
      }
      if (first) {
        const title = await this.ctx.rulesetTitle(g.ruleset);
        this.title = title;
        document.title = `${title} – Conclave`;
        const game = await loadGame(g.ruleset); // its table and styles (games/ID/)
        this.renderer = game ? game.table(this) : genericRenderer(this);
        this.chat = chatPanel(this); // table talk, beside any table
      }
      if (youChanged) this.legal = null;
      this.fetchLog();
      this.draw();
    } catch (e) {
      if (this.destroyed) return;
      if (e instanceof ApiError && e.status === 0) {
        // Offline: the socket's reconnection will bring us back.
        if (!this.meta) this.timers.push(setTimeout(() => this.loadMeta(tries + 1), 1500));
        return;
      }
      this.error = e;
      this.draw();
    }
  }

  onState(s) {
    const before = this.view;
    this.version = s.version;
    this.view = s.view;
    this.windows = s.windows || [];
    if (this.meta) {
      this.meta.version = s.version;
      // No window left: the game is over (or aborted); fetch the result.
      if (!this.windows.length && this.meta.status === 'running') this.awaitEnd();
    }
    this.fetchLog();
    if (before !== this.view) this.draw();
  }

  async awaitEnd(tries = 0) {
    if (this.ending && tries === 0) return;
    this.ending = true;
    try {
      const g = await api.game(this.id);
      if (this.destroyed) return;
      if (g.status !== 'running') {
        this.meta = { ...g };
        this.ending = false;
        announce('The game is over');
        this.ctx.refreshMe();
        this.draw();
        return;
      }
    } catch {
      /* retry below */
    }
    if (tries < 20 && !this.destroyed)
      this.timers.push(setTimeout(() => this.awaitEnd(tries + 1), 500));
    else this.ending = false;
  }

  fetchLog() {
    if (this.logBusy) {
      this.logAgain = true;
      return;
    }
    this.logBusy = true;
    api
      .log(this.id, this.logSeq)
      .then((r) => {
        if (this.destroyed) return;
        const fresh = (r.entries || []).filter((e) => e.seq > this.logSeq);
        if (fresh.length) {
          this.log.push(...fresh);
          this.logSeq = fresh[fresh.length - 1].seq;
          this.draw();
        }
        if (r.more) this.logAgain = true; // a page: the rest follows
      })
      .catch(() => {})
      .finally(() => {
        this.logBusy = false;
        if (this.logAgain) {
          this.logAgain = false;
          this.fetchLog();
        }
      });
  }

  // The window that waits on you now, or null.
  myWindow() {
    const you = this.you;
    if (you === null || you === undefined) return null;
    return (this.windows || []).find((w) => w.seats.includes(you)) || null;
  }

  // GET /legal for the window that waits on you (once per window).
  async fetchLegal() {
    const w = this.myWindow();
    if (!w) return null;
    if (this.legal && this.legal.window === w.id) return this.legal.data;
    if (this.legalBusy === w.id) return null;
    this.legalBusy = w.id;
    try {
      const r = await api.legal(this.id);
      const mine = (r.windows || []).find((x) => x.window === w.id) || null;
      this.legal = { window: w.id, data: mine };
      this.draw();
      return mine;
    } catch {
      return null;
    } finally {
      this.legalBusy = null;
    }
  }

  legalFor(windowId) {
    return this.legal && this.legal.window === windowId ? this.legal.data : null;
  }

  // Sealed orders, remembered for this browser (a reload shows them).
  savedOrder(windowId) {
    try {
      return JSON.parse(localStorage.getItem(`conclave.order.${this.id}.${windowId}`) || 'null');
    } catch {
      return null;
    }
  }

  // A sealed order. When the server cannot be reached the order is kept
  // (this.pending) and sent again every few seconds and when the socket
  // comes back; the error thrown then says so (isOutage(e) is true).
  async putOrder(windowId, order) {
    let r;
    try {
      r = await api.putOrder(this.id, windowId, order);
    } catch (e) {
      if (isOutage(e)) {
        this.pending = { windowId, order };
        this.scheduleResend();
        e.detail = OUTAGE_TEXT;
      }
      throw e;
    }
    this.pending = null;
    this.keepOrder(windowId, order, r);
    return r;
  }

  keepOrder(windowId, order, r) {
    localStorage.setItem(
      `conclave.order.${this.id}.${windowId}`,
      JSON.stringify({ order, receipt: r.receipt }),
    );
    announce('Order submitted');
  }

  scheduleResend(delay = 3000) {
    if (this.resendTimer || this.destroyed) return;
    this.resendTimer = setTimeout(() => {
      this.resendTimer = null;
      this.resend();
    }, delay);
    this.timers.push(this.resendTimer);
  }

  // Send the kept order again; a refusal now is the server's word, so the
  // order is dropped and the table shows what it said.
  async resend() {
    const p = this.pending;
    if (!p || this.destroyed) return;
    try {
      const r = await api.putOrder(this.id, p.windowId, p.order);
      if (this.pending !== p) return;
      this.pending = null;
      this.keepOrder(p.windowId, p.order, r);
      toast('The server is back: your order was sent.');
      this.draw();
    } catch (e) {
      if (this.pending !== p) return;
      if (isOutage(e)) return this.scheduleResend();
      this.pending = null;
      toast(e.detail || e.message, 'error');
      this.draw();
    }
  }

  async withdraw(windowId) {
    await api.withdrawOrder(this.id, windowId);
    localStorage.removeItem(`conclave.order.${this.id}.${windowId}`);
    announce('Order withdrawn');
  }

  // An open-window play; the same key is reused when the network failed,
  // so a retried play is not applied twice.
  async play(body) {
    const key = randomKey();
    for (let attempt = 0; ; attempt++) {
      try {
        return await api.play(this.id, body, key);
      } catch (e) {
        if (e instanceof ApiError && e.status === 0 && attempt < 3) {
          await new Promise((r) => setTimeout(r, 800 * (attempt + 1)));
          continue;
        }
        if (isOutage(e))
          e.detail =
            'Cannot reach the server: the move was not made. Try again when the connection is back.';
        throw e;
      }
    }
  }

  // Receipts this browser kept, to check against the revealed ones.
  receiptOk(entry) {
    const saved = this.savedOrder(entry.window);
    if (!saved || !saved.receipt) return null;
    return saved.receipt === entry.receipt;
  }

  model() {
    const m = this.meta;
    return {
      id: this.id,
      ruleset: m.ruleset,
      title: this.title,
      status: m.status,
      you: m.you,
      seats: m.seats,
      result: m.result,
      version: this.version,
      view: this.view,
      windows: this.windows,
      log: this.log,
      myWindow: this.myWindow(),
      spectator: m.you === null || m.you === undefined,
    };
  }

  draw() {
    if (this.destroyed) return;
    if (this.error && !this.meta) {
      render(
        this.main,
        h(
          'section.panel',
          h('h1', 'Game'),
          h('p.error', { role: 'alert' }, this.error.detail || String(this.error)),
          h('p', h('a', { href: this.ctx.href('/') }, 'Back to the lobbies')),
        ),
      );
      return;
    }
    if (!this.meta || !this.renderer) return;
    if (!this.root.isConnected || !this.bar.isConnected || this.main.childElementCount > 2)
      render(this.main, this.bar, this.root);
    const m = this.model();
    this.drawBar(m);
    if (this.replay) return; // the replay holds the table (replay.js)
    try {
      this.renderer.update(this.root, m);
    } catch (e) {
      console.error(e);
      toast(`Could not show the game: ${e.message}`, 'error');
    }
    if (m.myWindow && (!this.legal || this.legal.window !== m.myWindow.id)) this.fetchLegal();
    // The tab title and screen readers say when something waits on you.
    const waiting = m.myWindow && !(m.myWindow.submitted || []).includes(m.you);
    document.title = `${waiting ? '● ' : ''}${this.title || 'Game'} – Conclave`;
    if (waiting && this.announced !== m.myWindow.id) {
      this.announced = m.myWindow.id;
      announce('Your move');
    }
  }

  // Above the table: "How to play", and "Rematch" for a player once the
  // game is finished (drawn again only when that changes).
  drawBar(m) {
    const signedOut = !session.token;
    const state = `${m.status}:${m.spectator}:${signedOut}:${Boolean(this.chat)}`;
    if (this.barState === state) return;
    this.barState = state;
    render(
      this.bar,
      // "Talk" is docked here, in the layout: it never covers the table.
      this.chat ? this.chat.toggle : null,
      howtoButton(m.ruleset, m.title),
      m.status === 'finished' && !m.spectator ? rematchButton(this.ctx, this.meta) : null,
      m.status !== 'running' || !m.spectator ? replayButton(this) : null,
      signedOut ? signInBox(this.ctx) : null,
    );
  }

  // The table at a replayed version: the document the server rebuilt, with
  // no window open (nothing to act on in the past), the result only at the
  // end, and no log (the live log runs past the version shown).
  drawReplay(r) {
    const live = this.model();
    const over = r.version === r.latest && live.status !== 'running';
    const m = {
      ...live,
      view: r.view,
      windows: [],
      myWindow: null,
      version: r.version,
      status: over ? live.status : 'running',
      result: over ? live.result : null,
      log: [],
    };
    try {
      this.renderer.update(this.root, m);
    } catch (e) {
      console.error(e);
    }
  }

  stopReplay() {
    if (!this.replay) return;
    this.replay.box.remove();
    this.replay = null;
    this.draw();
  }

  destroy() {
    this.destroyed = true;
    if (this.unwatch) this.unwatch();
    if (this.unstatus) this.unstatus();
    for (const t of this.timers) {
      clearInterval(t);
      clearTimeout(t);
    }
    if (this.renderer && this.renderer.destroy) this.renderer.destroy();
    if (this.chat) this.chat.destroy();
  }
}

// A ruleset this page has no table for: the view as text, so nothing is
// hidden from a player who can still act through the API.
function genericRenderer() {
  return {
    update(root, m) {
      render(
        root,
        h(
          'section.panel',
          h('h1', m.title || m.ruleset),
          h('p.muted', `Status: ${m.status} · version ${m.version}`),
          h('pre.raw', JSON.stringify(m.view, null, 2)),
        ),
      );
    },
  };
}
