// app.js - the page's entry point: routing by location (/, /lobby/ID,
// /game/ID, /campaign, /settings, /verify, /signin, /unsubscribe), the header (who you are, the connection
// indicator), the session, and the shared context every screen gets.

import { api, session, ApiError } from './api.js';
import { Live, resolveWsUrl, wsPortParam } from './ws.js';
import { h, render, toast, announce } from './ui.js';
import { homeScreen, lobbyScreen } from './lobby.js';
import { gameScreen } from './game.js';
import { campaignScreen } from './games/sprint/campaign.js';
import { settingsScreen } from './settings.js';
import { startInbox } from './inbox.js';
import { verifyScreen, signInLinkScreen, unsubscribeScreen } from './account.js';

const main = document.getElementById('main');
let screen = null; // {destroy()}
let rulesetsPromise = null;

const ctx = {
  live: null,
  me: null, // GET /api/v1/me, or null when nobody is signed in

  // A path with the ?ws= port carried along (so reloads and shared links
  // keep reaching the same WebSocket port).
  href(path) {
    const port = wsPortParam();
    if (!port) return path;
    const u = new URL(path, location.origin);
    u.searchParams.set('ws', port);
    return u.pathname + u.search + u.hash;
  },

  navigate(path, { replace = false } = {}) {
    const to = ctx.href(path);
    if (replace) history.replaceState(null, '', to);
    else history.pushState(null, '', to);
    route();
  },

  rulesets() {
    if (!rulesetsPromise)
      rulesetsPromise = api.rulesets().catch((e) => {
        rulesetsPromise = null;
        throw e;
      });
    return rulesetsPromise;
  },

  async rulesetTitle(id) {
    try {
      const r = (await ctx.rulesets()).find((x) => x.id === id);
      return r ? r.title : id;
    } catch {
      return id;
    }
  },

  // The bot levels a ruleset offers ([{id, title}], the default first).
  async botLevels(id) {
    try {
      const r = (await ctx.rulesets()).find((x) => x.id === id);
      if (r && Array.isArray(r.bot_levels) && r.bot_levels.length) return r.bot_levels;
    } catch {
      /* fall through: the server always offers random */
    }
    return [{ id: 'random', title: 'Random' }];
  },

  // Refresh GET /me (after joining, finishing a game ...).
  async refreshMe() {
    if (!session.token) {
      ctx.me = null;
      renderWho();
      return null;
    }
    try {
      ctx.me = await api.me();
      if (typeof ctx.me.guest === 'boolean')
        localStorage.setItem('conclave.kind', ctx.me.guest ? 'guest' : 'account');
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) {
        session.clear();
        ctx.me = null;
        ctx.live && ctx.live.restart();
        toast('Your session has ended: pick a name or sign in again.', 'error');
      } else if (!ctx.me) {
        ctx.me = { id: null, name: session.name, games: [], lobbies: [], offline: true };
      }
    }
    renderWho();
    return ctx.me;
  },

  // Signed in (or out): remember, reconnect the socket as the new player.
  async setSession(token, name, kind) {
    if (token) {
      session.set(token, name);
      localStorage.setItem('conclave.kind', kind || 'guest');
    } else {
      session.clear();
      localStorage.removeItem('conclave.kind');
    }
    ctx.live.restart();
    await ctx.refreshMe();
  },

  requireName() {
    if (session.token) return true;
    toast('Pick a name first (or sign in).', 'error');
    ctx.navigate('/');
    return false;
  },
};

// ------------------------------------------------------------- header --

function renderWho() {
  const who = document.getElementById('who');
  if (!who) return;
  if (!session.token) {
    render(who, h('span.muted', 'Not signed in'));
    return;
  }
  const name = (ctx.me && ctx.me.name) || session.name || '…';
  const guest = localStorage.getItem('conclave.kind') !== 'account';
  let confirming = false;
  const out = h(
    'button.link',
    {
      type: 'button',
      'data-key': 'signout',
      onclick: async () => {
        if (guest && !confirming) {
          confirming = true;
          out.textContent = 'Sign out? A guest cannot come back';
          out.classList.add('danger');
          setTimeout(() => {
            confirming = false;
            out.textContent = 'Sign out';
            out.classList.remove('danger');
          }, 5000);
          return;
        }
        try {
          await api.signOut();
        } catch {
          /* forget the token anyway */
        }
        await ctx.setSession(null);
        announce('Signed out');
        ctx.navigate('/');
      },
    },
    'Sign out',
  );
  render(
    who,
    h('span.who-name', { 'data-testid': 'who' }, h('span.sr-only', 'Signed in as '), name),
    guest ? h('span.tag', 'guest') : null,
    out,
  );
}

function renderConn(status, live) {
  const el = document.getElementById('conn');
  if (!el) return;
  el.dataset.state = status;
  const label = { open: 'Live', connecting: 'Connecting…', offline: 'Offline' }[status] || status;
  const parts = [h('span.dot', { 'aria-hidden': 'true' }), h('span.conn-text', label)];
  if (status === 'offline') {
    const secs = Math.max(0, Math.round((live.retryAt - Date.now()) / 1000));
    parts.push(h('span.conn-retry', secs ? ` – retrying in ${secs} s` : ' – retrying'));
    parts.push(
      h(
        'button.link',
        { type: 'button', onclick: () => live.reconnectNow(), 'aria-label': 'Reconnect now' },
        'Reconnect',
      ),
    );
  }
  el.setAttribute('aria-label', `Connection: ${label}`);
  render(el, ...parts);
}

// ------------------------------------------------------------- routing --

function route() {
  if (screen && screen.destroy) screen.destroy();
  screen = null;
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const params = new URLSearchParams(location.search);
  let m;
  for (const a of document.querySelectorAll('nav a')) {
    const target = a.dataset.path;
    if ((target === '/' && path === '/') || (target !== '/' && path.startsWith(target)))
      a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (path === '/') screen = homeScreen(main, ctx);
  else if ((m = /^\/lobby\/([A-Za-z0-9_-]+)$/.exec(path)))
    screen = lobbyScreen(main, ctx, m[1], params.get('code'));
  else if ((m = /^\/game\/([A-Za-z0-9_-]+)$/.exec(path))) screen = gameScreen(main, ctx, m[1]);
  else if (path === '/campaign') screen = campaignScreen(main, ctx);
  else if (path === '/settings') screen = settingsScreen(main, ctx);
  else if (path === '/verify') screen = verifyScreen(main, ctx, params.get('token'));
  else if (path === '/unsubscribe') screen = unsubscribeScreen(main, ctx, params.get('token'));
  else if (path === '/signin')
    screen = signInLinkScreen(main, ctx, params.get('token'), params.get('next'));
  else {
    document.title = 'Not found – Conclave';
    render(
      main,
      h(
        'section.panel',
        h('h1', 'Nothing here'),
        h('p', h('a', { href: ctx.href('/') }, 'Back to the lobbies')),
      ),
    );
  }
  window.scrollTo(0, 0);
}

// Same-origin links navigate inside the page.
document.addEventListener('click', (ev) => {
  const a = ev.target.closest && ev.target.closest('a[href]');
  if (
    !a ||
    ev.defaultPrevented ||
    ev.button !== 0 ||
    ev.metaKey ||
    ev.ctrlKey ||
    ev.shiftKey ||
    ev.altKey
  )
    return;
  if (a.target || a.hasAttribute('download')) return;
  const u = new URL(a.href, location.href);
  if (u.origin !== location.origin || u.pathname.includes('.')) return;
  ev.preventDefault();
  history.pushState(null, '', ctx.href(u.pathname + u.search));
  route();
  main.focus({ preventScroll: true });
});

window.addEventListener('popstate', route);

// ---------------------------------------------------------------- boot --

async function boot() {
  for (const a of document.querySelectorAll('a[data-path]')) a.href = ctx.href(a.dataset.path);
  const url = await resolveWsUrl();
  ctx.live = new Live(url, () => session.token);
  ctx.live.onError = (msg) => {
    if (msg.status === 401) {
      session.clear();
      renderWho();
      toast('Your session has ended: pick a name or sign in again.', 'error');
    } else if (msg.status === 503) {
      setTimeout(() => ctx.live.restart(), 2000);
    }
  };
  ctx.live.onStatus(renderConn);
  setInterval(() => ctx.live.status === 'offline' && renderConn('offline', ctx.live), 1000);
  startInbox(document.getElementById('inbox'), ctx);
  ctx.live.start();
  window.conclave = ctx; // for the browser console (and tests)
  renderWho();
  route();
  ctx.refreshMe();
}

boot();
