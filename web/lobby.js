// lobby.js - the home screen (pick a name or sign in; your games; the live
// list of open lobbies, filtered by game; games to watch; creating a lobby)
// and the lobby screen (seats, bots, invite link, leave, start; the game
// opens for everyone in the lobby when it starts).

import { api, session, ApiError } from './api.js';
import { h, render, toast, announce, clockText, field, duration } from './ui.js';
import { schemaForm } from './form.js';
import { howtoButton } from './howto.js';

const FILTER_KEY = 'conclave.filter';
const NAME_RE = /^[A-Za-z0-9_-]{3,24}$/;

function problemText(e) {
  if (e instanceof ApiError) return e.detail;
  return String((e && e.message) || e);
}

function errorBox() {
  return h('p.error', { role: 'alert', hidden: true });
}

function showError(box, e) {
  box.textContent = e ? problemText(e) : '';
  box.hidden = !e;
}

function optionsText(options) {
  const word = (v) => (v === true ? 'on' : v === false ? 'off' : v);
  const parts = Object.entries(options || {}).map(
    ([k, v]) =>
      `${k.replace(/_/g, ' ').replace(/\bvp\b/gi, 'VP')}: ${Array.isArray(v) ? v.join(', ') || 'none' : word(v)}`,
  );
  return parts.join(' · ');
}

function seatsTaken(lobby) {
  return lobby.seats.filter((s) => s.ready).length;
}

function isMember(lobby, me) {
  return !!(me && me.id && lobby.seats.some((s) => s.player && s.player.id === me.id));
}

// ------------------------------------------------------------ sign in --

function signInPanel(ctx, onDone) {
  const guestName = h('input', {
    type: 'text',
    name: 'name',
    autocomplete: 'nickname',
    required: true,
    minlength: 3,
    maxlength: 24,
    pattern: '[A-Za-z0-9_\\-]{3,24}',
    'data-key': 'guest-name',
  });
  const guestErr = errorBox();
  const guestForm = h(
    'form.stack',
    {
      'aria-labelledby': 'guest-h',
      onsubmit: async (ev) => {
        ev.preventDefault();
        showError(guestErr, null);
        const name = guestName.value.trim();
        if (!NAME_RE.test(name)) {
          showError(guestErr, new Error('A name is 3 to 24 letters, digits, _ or -.'));
          guestName.focus();
          return;
        }
        try {
          const p = await api.createPlayer(name);
          await ctx.setSession(p.token, p.name, 'guest');
          announce(`Welcome, ${p.name}`);
          onDone();
        } catch (e) {
          showError(guestErr, e);
          guestName.focus();
        }
      },
    },
    h('h2#guest-h', 'Play as a guest'),
    h('p.muted', 'Pick a name and play at once. This browser remembers you.'),
    field('Your name', guestName, '3 to 24 letters, digits, _ or -'),
    guestErr,
    h('button.primary', { type: 'submit', 'data-key': 'guest-go' }, 'Play'),
  );

  const acctName = h('input', {
    type: 'text',
    name: 'username',
    autocomplete: 'username',
    required: true,
    'data-key': 'acct-name',
  });
  const acctPass = h('input', {
    type: 'password',
    name: 'password',
    autocomplete: 'current-password',
    required: true,
    'data-key': 'acct-pass',
  });
  const acctErr = errorBox();
  const submitAccount = async (create) => {
    showError(acctErr, null);
    const name = acctName.value.trim();
    const password = acctPass.value;
    try {
      if (create) {
        if (password.length < 8) throw new Error('A password is at least 8 characters long.');
        const p = await api.createPlayer(name, password);
        await ctx.setSession(p.token, p.name, 'account');
      } else {
        const s = await api.signIn(name, password);
        await ctx.setSession(s.token, name, 'account');
      }
      announce(`Signed in as ${name}`);
      onDone();
    } catch (e) {
      showError(acctErr, e);
    }
  };
  const acctForm = h(
    'form.stack',
    {
      'aria-labelledby': 'acct-h',
      onsubmit: (ev) => {
        ev.preventDefault();
        submitAccount(false);
      },
    },
    h('h2#acct-h', 'Sign in'),
    h('p.muted', 'With a password you can come back from any browser.'),
    field('Name', acctName),
    field('Password', acctPass, 'at least 8 characters'),
    acctErr,
    h(
      'div.row',
      h('button.primary', { type: 'submit', 'data-key': 'acct-go' }, 'Sign in'),
      h(
        'button',
        { type: 'button', 'data-key': 'acct-create', onclick: () => submitAccount(true) },
        'Create account',
      ),
    ),
  );
  return h(
    'section.panel.welcome',
    { 'aria-label': 'Pick a name or sign in' },
    h('div.welcome-grid', guestForm, acctForm),
  );
}

// --------------------------------------------------------------- home --

// The page to return to after picking a name (?next=, set by a lobby opened
// from an invite link while signed out): a path of this site only.
function nextPath() {
  const next = new URLSearchParams(location.search).get('next');
  return next && /^\/lobby\/[A-Za-z0-9_-]+(\?code=[A-Za-z0-9_%-]*)?$/.test(next) ? next : null;
}

// A seated player's reputation for async play (median answer time, missed
// windows), or nothing before they have any.
function reputationText(rep) {
  if (!rep || (!rep.answered && !rep.missed)) return null;
  const median = rep.median_response_seconds === null ? '–' : duration(rep.median_response_seconds);
  return h(
    'span.muted.reputation',
    { 'data-testid': 'reputation' },
    ` · answers in ${median} (median) · missed ${rep.missed}`,
  );
}

export function homeScreen(main, ctx) {
  document.title = 'Lobbies – Conclave';
  const st = {
    rulesets: [],
    lobbies: null, // the feed's list of open public lobbies
    started: null, // GET /lobbies?status=started
    gameStatus: new Map(), // game id -> status
    filter: localStorage.getItem(FILTER_KEY) || '',
    destroyed: false,
  };
  const welcome = h('div');
  const mine = h('div');
  const lobbiesBox = h('section.panel', { 'aria-labelledby': 'lobbies-h' });
  const watchBox = h('section.panel', { 'aria-labelledby': 'watch-h' });
  const createBox = h('div');
  render(
    main,
    h(
      'div.home',
      h('h1.sr-only', 'Conclave: lobbies and games'),
      h('div.home-main', welcome, mine, lobbiesBox, watchBox),
      h('div.home-side', createBox),
    ),
  );

  const titleOf = (id) => (st.rulesets.find((r) => r.id === id) || { title: id }).title;

  function renderWelcome() {
    if (session.token) render(welcome);
    else
      render(
        welcome,
        signInPanel(ctx, () => ctx.navigate(nextPath() || '/', { replace: true })),
      );
  }

  function renderMine() {
    const me = ctx.me;
    if (!session.token || !me) return render(mine);
    const running = (me.games || []).filter((g) => g.status === 'running');
    const lobbies = me.lobbies || [];
    if (!running.length && !lobbies.length) return render(mine);
    render(
      mine,
      h(
        'section.panel',
        { 'aria-labelledby': 'mine-h' },
        h('h2#mine-h', 'Your tables'),
        h(
          'ul.list',
          running.map((g) =>
            h(
              'li.list-row',
              h('span', h('strong', titleOf(g.ruleset)), ' · game in progress'),
              h(
                'a.button',
                {
                  href: ctx.href(`/game/${g.id}`),
                  'aria-label': `Resume ${titleOf(g.ruleset)} game`,
                },
                'Resume',
              ),
            ),
          ),
          lobbies.map((l) =>
            h(
              'li.list-row',
              h(
                'span',
                h('strong', titleOf(l.ruleset)),
                ` · lobby, ${seatsTaken(l)}/${l.seats.length} seated`,
              ),
              h('a.button', { href: ctx.href(`/lobby/${l.id}`) }, 'Open lobby'),
            ),
          ),
        ),
      ),
    );
  }

  function lobbyRow(l) {
    const member = isMember(l, ctx.me);
    const free = l.seats.some((s) => !s.ready);
    const title = titleOf(l.ruleset);
    const seats = h(
      'span.seat-dots',
      { role: 'img', 'aria-label': `${seatsTaken(l)} of ${l.seats.length} seats taken` },
      l.seats.map((s) => h('span.seat-dot', { class: s.ready ? 'taken' : 'free' })),
    );
    let action;
    if (member)
      action = h(
        'a.button',
        { href: ctx.href(`/lobby/${l.id}`), 'data-key': `open-${l.id}` },
        'Open',
      );
    else if (free && session.token)
      action = h(
        'button.primary',
        {
          type: 'button',
          'data-key': `join-${l.id}`,
          'aria-label': `Join ${title} lobby hosted by ${l.host.name}`,
          onclick: async () => {
            try {
              await api.join(l.id, {});
              await ctx.refreshMe();
              ctx.navigate(`/lobby/${l.id}`);
            } catch (e) {
              toast(problemText(e), 'error');
            }
          },
        },
        'Join',
      );
    else action = h('a.button', { href: ctx.href(`/lobby/${l.id}`) }, 'View');
    return h(
      'li.lobby-row',
      { dataset: { lobbyId: l.id } },
      h('div.lobby-title', h('strong', title), h('span.muted', ` hosted by ${l.host.name}`)),
      h(
        'div.lobby-meta',
        seats,
        h('span', `${seatsTaken(l)}/${l.seats.length}`),
        h('span.muted', clockText(l.clock)),
        optionsText(l.options) ? h('span.muted', optionsText(l.options)) : null,
      ),
      h('div.lobby-act', action),
    );
  }

  function filterSelect() {
    const sel = h(
      'select#lobby-filter',
      {
        'data-key': 'filter',
        onchange: () => {
          st.filter = sel.value;
          localStorage.setItem(FILTER_KEY, st.filter);
          renderLobbies();
          renderWatch();
        },
      },
      h('option', { value: '' }, 'All games'),
      st.rulesets.map((r) => h('option', { value: r.id }, r.title)),
    );
    sel.value = st.filter;
    return h('div.filter', h('label', { for: 'lobby-filter' }, 'Game'), sel);
  }

  function renderLobbies() {
    const list = (st.lobbies || []).filter((l) => !st.filter || l.ruleset === st.filter);
    render(
      lobbiesBox,
      h('div.panel-head', h('h2#lobbies-h', 'Open lobbies'), filterSelect()),
      st.lobbies === null
        ? h('p.muted', 'Loading…')
        : list.length
          ? h('ul.lobby-list', list.map(lobbyRow))
          : h(
              'p.muted.empty',
              'No open lobbies',
              st.filter ? ` for ${titleOf(st.filter)}` : '',
              session.token ? '. Create one!' : '. Pick a name to create one.',
            ),
    );
  }

  function renderWatch() {
    const list = (st.started || []).filter(
      (l) => l.game && (!st.filter || l.ruleset === st.filter),
    );
    const rows = list
      .map((l) => ({ l, status: st.gameStatus.get(l.game) }))
      // Only games known to be running or finished: an abandoned (aborted)
      // game, or one whose state is not known yet, is not offered as live.
      .filter((x) => x.status === 'running' || x.status === 'finished')
      .sort((a, b) => (a.status === 'running' ? 0 : 1) - (b.status === 'running' ? 0 : 1))
      .slice(0, 20);
    render(
      watchBox,
      h('h2#watch-h', 'Games to watch'),
      st.started === null
        ? h('p.muted', 'Loading…')
        : rows.length
          ? h(
              'ul.list',
              rows.map(({ l, status }) =>
                h(
                  'li.list-row',
                  { dataset: { gameId: l.game } },
                  h(
                    'span',
                    h('strong', titleOf(l.ruleset)),
                    ' · ',
                    l.seats
                      .map((s) => (s.player ? s.player.name : s.bot ? `bot (${s.bot})` : '—'))
                      .join(' vs '),
                    status
                      ? h(
                          'span.tag',
                          { class: status === 'running' ? 'tag-live' : '' },
                          status === 'running' ? 'live' : status,
                        )
                      : null,
                  ),
                  h(
                    'a.button',
                    {
                      href: ctx.href(`/game/${l.game}`),
                      // The visible words first (axe's label-content-name-mismatch).
                      'aria-label': `${status === 'finished' ? 'Final table' : 'Watch'} of ${titleOf(l.ruleset)}: ${l.seats.map((s) => (s.player ? s.player.name : 'bot')).join(' vs ')}`,
                    },
                    status === 'finished' ? 'Final table' : 'Watch',
                  ),
                ),
              ),
            )
          : h('p.muted.empty', 'No games are being played right now.'),
    );
  }

  async function loadStarted() {
    try {
      st.started = await api.lobbies('started');
    } catch {
      st.started = st.started || [];
    }
    if (st.destroyed) return;
    renderWatch();
    // Show which of the newest are still running (a few reads).
    await Promise.all(
      st.started.slice(0, 20).map(async (l) => {
        if (!l.game || st.gameStatus.get(l.game) === 'finished') return;
        try {
          const g = await api.game(l.game);
          st.gameStatus.set(l.game, g.status);
        } catch {
          /* leave it unknown */
        }
      }),
    );
    if (!st.destroyed) renderWatch();
  }

  function renderCreate() {
    main.querySelector('.home').classList.toggle('no-side', !session.token);
    if (!session.token) return render(createBox);
    render(createBox, createPanel(ctx, st.rulesets));
  }

  // The live feed: a full list, then one lobby per change.
  const unwatch = ctx.live.watchLobbies((msg) => {
    if (msg.type === 'lobbies') st.lobbies = msg.lobbies;
    else if (msg.type === 'lobby') {
      const l = msg.lobby;
      const rest = (st.lobbies || []).filter((x) => x.id !== l.id);
      st.lobbies = l.status === 'open' ? [l, ...rest] : rest;
      if (l.status === 'started') loadStarted();
    }
    renderLobbies();
  });
  // Until the feed answers (or when the socket is down), the REST list.
  api
    .lobbies('open')
    .then((list) => {
      if (st.lobbies === null && !st.destroyed) {
        st.lobbies = list.filter((l) => !l.private);
        renderLobbies();
      }
    })
    .catch(() => {});

  const poll = setInterval(loadStarted, 15000);
  ctx
    .rulesets()
    .then((r) => {
      st.rulesets = r;
      renderLobbies();
      renderWatch();
      renderCreate();
      renderMine();
    })
    .catch((e) => toast(problemText(e), 'error'));
  renderWelcome();
  renderCreate();
  renderLobbies();
  renderWatch();
  loadStarted();
  if (session.token) ctx.refreshMe().then(() => !st.destroyed && (renderMine(), renderLobbies()));

  return {
    destroy() {
      st.destroyed = true;
      unwatch();
      clearInterval(poll);
    },
  };
}

// ------------------------------------------------------------- create --

const CLOCK_DEFAULTS = { live: 60, async: 86400 };

// The options a player sets in the form: the campaign ones are left out
// (a campaign game starts from the campaign page, never by a ticked box).
function playerOptions(schema) {
  if (!schema || !schema.properties) return schema;
  const properties = Object.fromEntries(
    Object.entries(schema.properties).filter(([k]) => !k.startsWith('campaign')),
  );
  return { ...schema, properties };
}

function createPanel(ctx, rulesets) {
  if (!rulesets.length)
    return h('section.panel', h('h2', 'Create a lobby'), h('p.muted', 'Loading games…'));
  const gameSel = h(
    'select',
    { name: 'ruleset', 'data-key': 'c-game' },
    rulesets.map((r) => h('option', { value: r.id }, r.title)),
  );
  const preferred = localStorage.getItem(FILTER_KEY) || 'sprint';
  if (rulesets.some((r) => r.id === preferred)) gameSel.value = preferred;
  const seats = h('input', {
    type: 'number',
    name: 'seats',
    inputmode: 'numeric',
    'data-key': 'c-seats',
    required: true,
  });
  const seatsHint = h('small.hint');
  const summary = h('p.muted.summary');
  const optsBox = h('div.options');
  const howtoBox = h('div.howto-slot');
  const clockMode = h(
    'select',
    { name: 'clock', 'data-key': 'c-clock' },
    h('option', { value: 'none' }, 'No clock'),
    h('option', { value: 'live' }, 'Live (seconds per turn)'),
    h('option', { value: 'async' }, 'Async (hours or days per turn)'),
  );
  const clockSecs = h('input', {
    type: 'number',
    name: 'seconds',
    inputmode: 'numeric',
    min: 1,
    'data-key': 'c-secs',
  });
  const secsField = field('Seconds per turn', clockSecs, 'live: 5 to 3600 · async: 60 and more');
  const priv = h('input', { type: 'checkbox', name: 'private', 'data-key': 'c-private' });
  const err = errorBox();
  let form = null;

  const ruleset = () => rulesets.find((r) => r.id === gameSel.value) || rulesets[0];
  const syncGame = () => {
    const r = ruleset();
    seats.min = r.min_seats;
    seats.max = r.max_seats;
    seats.value = String(r.min_seats === 1 && r.max_seats > 1 ? 1 : r.min_seats);
    seatsHint.textContent =
      r.min_seats === r.max_seats ? `exactly ${r.min_seats}` : `${r.min_seats} to ${r.max_seats}`;
    summary.textContent = r.summary || '';
    form = schemaForm(playerOptions(r.options), { prefix: `opt-${r.id}` });
    render(optsBox, form.element);
    render(howtoBox, howtoButton(r.id, r.title));
  };
  const syncClock = () => {
    secsField.hidden = clockMode.value === 'none';
    if (clockMode.value !== 'none') clockSecs.value = String(CLOCK_DEFAULTS[clockMode.value]);
  };
  gameSel.addEventListener('change', syncGame);
  clockMode.addEventListener('change', syncClock);
  syncGame();
  syncClock();
  seats.id = 'c-seats';
  seatsHint.id = 'c-seats-hint';
  seats.setAttribute('aria-describedby', seatsHint.id);

  const onsubmit = async (ev) => {
    ev.preventDefault();
    showError(err, null);
    const r = ruleset();
    const n = Number(seats.value);
    if (!Number.isInteger(n) || n < r.min_seats || n > r.max_seats) {
      showError(err, new Error(`${r.title} takes ${seatsHint.textContent} seats.`));
      seats.focus();
      return;
    }
    const body = { ruleset: r.id, seats: n };
    const options = form.values();
    if (Object.keys(options).length) body.options = options;
    if (priv.checked) body.private = true;
    if (clockMode.value !== 'none')
      body.clock = { mode: clockMode.value, seconds: Number(clockSecs.value) };
    try {
      const lobby = await api.createLobby(body);
      await ctx.refreshMe();
      ctx.navigate(`/lobby/${lobby.id}`);
    } catch (e) {
      showError(err, e);
    }
  };

  const quick = h(
    'button',
    {
      type: 'button',
      'data-key': 'quick-solo',
      onclick: async () => {
        try {
          const lobby = await api.createLobby({ ruleset: 'sprint', seats: 1 });
          const g = await api.start(lobby.id);
          ctx.navigate(`/game/${g.game}`);
        } catch (e) {
          showError(err, e);
        }
      },
    },
    'Quick solitaire Sprint',
  );

  return h(
    'section.panel.create',
    { 'aria-labelledby': 'create-h' },
    h('h2#create-h', 'Create a lobby'),
    h(
      'form.stack',
      { onsubmit, 'aria-labelledby': 'create-h' },
      field('Game', gameSel),
      summary,
      howtoBox,
      h('div.field', h('label', { for: 'c-seats' }, 'Seats'), seats, seatsHint),
      h('fieldset.field', h('legend', 'Options'), optsBox),
      field('Clock', clockMode),
      secsField,
      h('label.check', priv, ' Private (only people with the invite link can join)'),
      err,
      h(
        'div.row',
        h('button.primary', { type: 'submit', 'data-key': 'c-go' }, 'Create lobby'),
        rulesets.some((x) => x.id === 'sprint') ? quick : null,
      ),
    ),
  );
}

// -------------------------------------------------------------- lobby --

// A bot's name: its level's title ("Basic bot").
function botName(levels, level) {
  const lv = levels.find((x) => x.id === level);
  return `${lv ? lv.title : level} bot`;
}

export function lobbyScreen(main, ctx, id, code) {
  // Where this screen is, invite code included: signing in returns here.
  const here = () => `/lobby/${id}${code ? `?code=${encodeURIComponent(code)}` : ''}`;
  document.title = 'Lobby – Conclave';
  const st = { lobby: null, error: null, busy: false, destroyed: false, opened: false };
  const root = h('section.panel.lobby', { 'aria-labelledby': 'lobby-h' });
  render(main, root);
  const err = errorBox();

  const act = (fn) => async () => {
    if (st.busy) return;
    st.busy = true;
    draw();
    showError(err, null);
    try {
      const l = await fn();
      if (l && l.id) st.lobby = l;
      await load();
    } catch (e) {
      showError(err, e);
    } finally {
      st.busy = false;
      draw();
    }
  };

  async function load() {
    try {
      const l = await api.lobby(id, code);
      if (st.destroyed) return;
      st.lobby = l;
      st.error = null;
    } catch (e) {
      if (st.destroyed) return;
      if (!(e instanceof ApiError && e.status === 0)) st.error = e;
    }
    draw();
  }

  function inviteLink(l) {
    const u = new URL(`/lobby/${l.id}`, location.origin);
    u.searchParams.set('code', l.invite_code);
    const port =
      new URLSearchParams(location.search).get('ws') || sessionStorage.getItem('conclave.ws');
    if (port) u.searchParams.set('ws', port);
    return u.toString();
  }

  async function draw() {
    if (st.destroyed) return;
    const l = st.lobby;
    if (!l) {
      render(
        root,
        h('h1#lobby-h', 'Lobby'),
        st.error
          ? h('p.error', { role: 'alert' }, problemText(st.error))
          : h('p.muted', 'Loading…'),
        h('p', h('a', { href: ctx.href('/') }, 'Back to the lobbies')),
      );
      return;
    }
    const me = ctx.me;
    const title = await ctx.rulesetTitle(l.ruleset);
    const levels = await ctx.botLevels(l.ruleset);
    document.title = `${title} lobby – Conclave`;
    const member = isMember(l, me);
    const host = me && me.id && l.host.id === me.id;
    const full = l.seats.every((s) => s.ready);
    if (l.status === 'started' && l.game && member && !st.opened) {
      st.opened = true;
      announce('The game has started');
      ctx.navigate(`/game/${l.game}`, { replace: true });
      return;
    }
    const seatRows = l.seats.map((s) => {
      const who = s.player
        ? h(
            'span',
            h('strong', s.player.name),
            s.player.id === l.host.id ? h('span.tag', 'host') : null,
            me && s.player.id === me.id ? h('span.tag.tag-you', 'you') : null,
            reputationText(s.player.reputation),
          )
        : s.bot
          ? h('span', h('strong', botName(levels, s.bot)), h('span.tag', 'bot'))
          : h('span.muted', 'Empty seat');
      const actions = [];
      const removable =
        host && l.status === 'open' && s.ready && !(s.player && s.player.id === l.host.id);
      if (removable) {
        const name = s.player ? s.player.name : botName(levels, s.bot);
        actions.push(
          h(
            'button',
            {
              type: 'button',
              'data-key': `clear-${s.seat}`,
              'aria-label': `Remove ${name} from seat ${s.seat + 1}`,
              onclick: act(() => api.clearSeat(id, s.seat)),
            },
            'Remove',
          ),
        );
      }
      if (l.status === 'open' && !s.ready) {
        if (!member && session.token)
          actions.push(
            h(
              'button.primary',
              {
                type: 'button',
                'data-key': `sit-${s.seat}`,
                onclick: act(() => api.join(id, code ? { seat: s.seat, code } : { seat: s.seat })),
              },
              'Sit here',
            ),
          );
        if (host) {
          const level = h(
            'select',
            { 'aria-label': `Bot level for seat ${s.seat + 1}`, 'data-key': `lvl-${s.seat}` },
            levels.map((lv) => h('option', { value: lv.id }, lv.title)),
          );
          actions.push(
            level,
            h(
              'button',
              {
                type: 'button',
                'data-key': `bot-${s.seat}`,
                onclick: act(() => api.addBot(id, { seat: s.seat, level: level.value })),
              },
              'Add bot',
            ),
          );
        }
      }
      return h(
        'li.seat-row',
        { dataset: { seat: s.seat } },
        h('span.seat-no', `Seat ${s.seat + 1}`),
        who,
        h('span.seat-act', actions),
      );
    });
    const startReason = !full ? 'Every seat needs a player or a bot.' : '';
    const waitingHost = member && !host && l.status === 'open';
    render(
      root,
      h(
        'div.panel-head',
        h('h1#lobby-h', `${title} lobby`),
        h('span.tag', { class: `status-${l.status}` }, l.status),
        howtoButton(l.ruleset, title),
      ),
      waitingHost
        ? h(
            'p.waiting-host',
            { role: 'status', 'data-testid': 'waiting-host' },
            full
              ? 'Every seat is taken: waiting for the host to start the game.'
              : 'You are seated: waiting for more players, then for the host to start the game.',
          )
        : null,
      h(
        'dl.facts',
        h('dt', 'Host'),
        h('dd', l.host.name),
        h('dt', 'Clock'),
        h('dd', clockText(l.clock)),
        h('dt', 'Options'),
        h('dd', optionsText(l.options) || 'the standard rules'),
        h('dt', 'Visibility'),
        h('dd', l.private ? 'private (invite only)' : 'public'),
      ),
      l.invite_code
        ? h(
            'div.invite',
            h('label', { for: 'invite' }, 'Invite link'),
            h(
              'div.row',
              h('input#invite', {
                type: 'text',
                readonly: true,
                value: inviteLink(l),
                onfocus: (e) => e.target.select(),
              }),
              h(
                'button',
                {
                  type: 'button',
                  'data-key': 'copy',
                  onclick: async () => {
                    try {
                      await navigator.clipboard.writeText(inviteLink(l));
                      toast('Invite link copied');
                    } catch {
                      document.getElementById('invite').select();
                      toast('Select the link and copy it');
                    }
                  },
                },
                'Copy',
              ),
            ),
          )
        : null,
      h('h2', 'Seats'),
      h('ul.seats', seatRows),
      err,
      l.status === 'open'
        ? h(
            'div.row.lobby-actions',
            host
              ? h(
                  'button.primary',
                  {
                    type: 'button',
                    'data-key': 'start',
                    disabled: !full,
                    'aria-describedby': startReason ? 'start-why' : null,
                    onclick: act(async () => {
                      const g = await api.start(id);
                      st.opened = true;
                      ctx.navigate(`/game/${g.game}`, { replace: true });
                    }),
                  },
                  'Start game',
                )
              : null,
            host && startReason ? h('small#start-why.hint', startReason) : null,
            member
              ? h(
                  'button',
                  {
                    type: 'button',
                    'data-key': 'leave',
                    onclick: act(async () => {
                      await api.leave(id);
                      await ctx.refreshMe();
                      ctx.navigate('/');
                    }),
                  },
                  host ? 'Close lobby' : 'Leave',
                )
              : null,
            !session.token
              ? h(
                  'p.muted',
                  h(
                    'a',
                    {
                      href: ctx.href(`/?next=${encodeURIComponent(here())}`),
                      'data-key': 'pick-name',
                    },
                    'Pick a name',
                  ),
                  ' to take a seat.',
                )
              : null,
          )
        : l.status === 'started' && l.game
          ? h(
              'p',
              'The game has started. ',
              h(
                'a.button.primary',
                { href: ctx.href(`/game/${l.game}`) },
                member ? 'Open the game' : 'Watch the game',
              ),
            )
          : h('p.muted', 'This lobby is closed.'),
      h('p', h('a', { href: ctx.href('/') }, '← All lobbies')),
    );
    // While a request is in flight the actions wait (a click would be
    // ignored), so show them disabled rather than drop the click.
    root.setAttribute('aria-busy', st.busy ? 'true' : 'false');
    if (st.busy)
      for (const b of root.querySelectorAll('button:not([data-key="copy"])')) b.disabled = true;
  }

  const unwatch = ctx.live.watchLobbies((msg) => {
    if (msg.type === 'lobby' && msg.lobby.id === id) {
      // The feed shows the public side; reload for members' fields.
      st.lobby = { ...msg.lobby, invite_code: st.lobby && st.lobby.invite_code };
      draw();
      load();
    } else if (msg.type === 'lobbies' && st.lobby && st.lobby.status === 'open') {
      load(); // (re)connected: we may have missed a change
    }
  });
  // Private lobbies never reach the public feed: poll as well.
  const poll = setInterval(() => !st.busy && load(), 3000);
  (async () => {
    if (session.token && !ctx.me) await ctx.refreshMe();
    await load();
  })();
  return {
    destroy() {
      st.destroyed = true;
      unwatch();
      clearInterval(poll);
    },
  };
}
