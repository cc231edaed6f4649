// starbase.js - the Starbase table: every player's starbase, ISK, income,
// hand and market counts, structures, news in play, dock and outer region
// stack; the home and outer regions with their ships and locations; your
// hand. The plays `legal` offers become buttons on the cards they concern
// (play, dock, undock, warp, activate, deactivate, abilities, discard),
// the rest (pass or end the phase, forfeit, anything not on a card) sit in
// the action bar under the hint of what you can do now. Every play is a
// POST /plays in the priority window you hold; the response rule route
// lets you pass automatically until your turn.

import { h, render, toast } from '../../ui.js';
import { api } from '../../api.js';
import { logPanel } from '../../gamekit.js';
import { choiceLabel, describe } from './starbasetext.js';
import {
  resultPanel,
  topPanel,
  handPanel,
  regionPanel,
  playerPanel,
  howTo,
} from './starbasepanels.js';

// Every card object in the view, by id (names for targets and labels).
function cardIndex(v) {
  const byId = new Map();
  const cards = new Map();
  const walk = (j) => {
    if (Array.isArray(j)) j.forEach(walk);
    else if (j && typeof j === 'object') {
      if (Number.isInteger(j.id) && typeof j.key === 'string') {
        cards.set(j.id, j);
        byId.set(j.id, j.name);
      }
      for (const [k, x] of Object.entries(j)) if (k !== 'cards') walk(x);
    }
  };
  walk(v);
  return { byId, card: (id) => cards.get(id) || null };
}

const choiceKey = (ch) =>
  ['sb', ch.action, ch.card, ch.index, ch.target, ch.region]
    .filter((x) => x !== undefined)
    .join('-');

// Legal choices split by the card they act on; the rest stay general.
function groupChoices(c, m) {
  const w = m.myWindow;
  const legal = w ? c.legalFor(w.id) : null;
  const byCard = new Map();
  const general = [];
  let upgrade = null;
  for (const ch of (legal && legal.choices) || []) {
    if (ch.action === 'upgrade') upgrade = ch;
    else if (ch.card !== undefined) {
      if (!byCard.has(ch.card)) byCard.set(ch.card, []);
      byCard.get(ch.card).push(ch);
    } else general.push(ch);
  }
  return { byCard, general, upgrade, loaded: !!legal };
}

async function setRule(m, until) {
  try {
    await api.setResponseRule(m.id, until, true);
  } catch (e) {
    toast(e.detail || e.message, 'error');
  }
}

// "Pass automatically in the other players' turns": a rule "until my
// turn" runs out when your turn comes, so the page sets it again once in
// each of the other players' turns (not again in a turn where it stopped
// because you were attacked or targeted). Remembered in this browser.
function autoPass(c) {
  const key = `conclave.starbase.auto.${c.id}`;
  let armedTurn = null;
  const a = {
    on: localStorage.getItem(key) === '1',
    rearm(m) {
      const v = m.view;
      if (!a.on || m.spectator || m.status !== 'running' || !v.priority) return;
      if (v.active === m.you || armedTurn === v.turn) return;
      armedTurn = v.turn;
      if (!v.priority.my_rule) setRule(m, 'my_turn');
    },
    set(m, on) {
      a.on = on;
      localStorage.setItem(key, on ? '1' : '0');
      armedTurn = null;
      if (on) a.rearm(m);
      else if (m.view.priority && m.view.priority.my_rule) setRule(m, 'never');
      c.draw();
    },
  };
  return a;
}

// Legal plays whose card is nowhere on the table go to the action bar
// (defensive: every legal play stays reachable).
function unplaced(v, g) {
  const shown = new Set();
  for (const p of v.players)
    for (const z of [p.structures, p.news, p.dock, p.outer_regions])
      z.forEach((x) => shown.add(x.id));
  for (const r of v.regions) {
    r.ships.forEach((x) => shown.add(x.id));
    r.locations.forEach((x) => shown.add(x.id));
    if (r.card) shown.add(r.card.id);
  }
  (v.hand || []).forEach((x) => shown.add(x.id));
  for (const [id, list] of g.byCard) if (!shown.has(id)) g.general.push(...list);
}

export function starbaseRenderer(c) {
  const auto = autoPass(c);
  let busy = false;

  async function send(m, ch) {
    const w = m.myWindow;
    if (!w || busy) return;
    busy = true;
    c.draw();
    try {
      await c.play({ window: w.id, ...ch });
    } catch (e) {
      toast(e.detail || e.message, 'error');
    } finally {
      busy = false;
      c.draw();
    }
  }

  // <details> keep their open/closed state across re-renders.
  const opened = new Map();
  function details(key, dflt, summary, ...body) {
    const isOpen = opened.has(key) ? opened.get(key) : dflt;
    const el = h(
      'details',
      { class: `sb-stack`, open: isOpen ? true : null, 'data-key': key },
      h('summary', summary),
      ...body,
    );
    el.addEventListener('toggle', () => opened.set(key, el.open));
    return el;
  }

  function button(m, names, ch, extra = {}) {
    return h(
      'button',
      {
        type: 'button',
        class: extra.primary ? 'primary' : null,
        // A pass is keyed by its step, so focus never lands on the next
        // step's pass by itself.
        'data-key': ch.action === 'pass' ? `sb-pass-${m.view.step}` : choiceKey(ch),
        'data-action': ch.action,
        disabled: busy,
        onclick: () => send(m, ch),
      },
      choiceLabel(m, ch, names),
    );
  }

  // Keyboard focus: when the control you used goes away (a card played,
  // the table redrawn while a play is sent), it comes back to the same
  // control if it returns, else to the hint (never to a button that would
  // act on a second Enter).
  let focusKey = null;
  function keepFocus(root, draw) {
    const a = document.activeElement;
    if (a && root.contains(a) && a.dataset.key) focusKey = a.dataset.key;
    else if (a && a !== document.body) focusKey = null;
    draw();
    if (!focusKey || root.contains(document.activeElement)) return;
    const el =
      root.querySelector(`[data-key="${CSS.escape(focusKey)}"]:not([disabled])`) ||
      (busy ? null : root.querySelector('[data-key="sb-hint"]'));
    if (el) {
      el.focus({ preventScroll: true });
      focusKey = el.dataset.key;
    }
  }

  return {
    update(root, m) {
      const v = m.view || {};
      if (!v.players) {
        render(root, h('p.muted', 'Loading the table…'));
        return;
      }
      auto.rearm(m);
      const names = cardIndex(v);
      const g = groupChoices(c, m);
      unplaced(v, g);
      const t = {
        c,
        m,
        g,
        names,
        auto: auto.on,
        button: (ch, extra) => button(m, names, ch, extra),
        details,
        setAuto: (on) => auto.set(m, on),
      };
      const lines = m.log.map((e) => describe(e, m)).filter(Boolean);
      const order = [...v.players].sort((a, b) =>
        a.seat === m.you ? -1 : b.seat === m.you ? 1 : a.seat - b.seat,
      );
      const homes = v.regions.filter((r) => r.kind === 'home');
      const outers = v.regions.filter((r) => r.kind === 'outer');
      const table = h(
        'div.sb-layout',
        {
          dataset: {
            window: g.loaded && m.myWindow ? m.myWindow.id : '',
            turn: v.turn,
            step: v.step,
            active: v.active,
            version: m.version,
          },
        },
        h(
          'div.sb-main',
          resultPanel(t),
          topPanel(t),
          handPanel(t),
          h(
            'section.panel.sb-regions',
            { 'aria-labelledby': 'sb-regions-h' },
            h('h2#sb-regions-h', 'Regions'),
            h(
              'div.sb-region-grid',
              homes.map((r) => regionPanel(t, r)),
              outers.map((r) => regionPanel(t, r)),
            ),
            outers.length
              ? null
              : h(
                  'p.muted',
                  'No outer region is in play yet: put one into play from your outer region stack.',
                ),
          ),
          order.map((p) => playerPanel(t, p)),
        ),
        h('div.sb-side', howTo(t), logPanel(lines)),
      );
      keepFocus(root, () => render(root, table));
    },
  };
}
