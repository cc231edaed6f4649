// starbase.js - the Starbase table: every player's starbase, ISK, income,
// hand and market counts, structures, news in play, dock and outer region
// stack; the home and outer regions with their ships and locations; your
// hand. The plays `legal` offers become buttons on the cards they concern
// (play, dock, undock, warp, activate, deactivate, abilities, discard),
// the rest (pass or end the phase, forfeit, anything not on a card) sit in
// the action bar under the hint of what you can do now. Every play is a
// POST /plays in the priority window you hold; the response rule route
// lets you pass automatically until your turn.

import { h, render, toast } from './ui.js';
import { api } from './api.js';
import { seatBadge, seatName, countdown, logPanel, listText } from './gamekit.js';
import { sbCard, starbaseCard } from './starbasecards.js';
import { PHASES, HOW_TO_PLAY, choiceLabel, describe, hint, who } from './starbasetext.js';

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

const choiceKey = (ch) => ['sb', ch.action, ch.card, ch.index, ch.target, ch.region].filter((x) => x !== undefined).join('-');

export function starbaseRenderer(c) {
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
  const autoKey = `conclave.starbase.auto.${c.id}`;
  let auto = localStorage.getItem(autoKey) === '1';
  let armedTurn = null;
  function rearm(m) {
    const v = m.view;
    if (!auto || m.spectator || m.status !== 'running' || !v.priority) return;
    if (v.active === m.you || armedTurn === v.turn) return;
    armedTurn = v.turn;
    if (!v.priority.my_rule) setRule(m, 'my_turn');
  }
  function setAuto(m, on) {
    auto = on;
    localStorage.setItem(autoKey, on ? '1' : '0');
    armedTurn = null;
    if (on) rearm(m);
    else if (m.view.priority && m.view.priority.my_rule) setRule(m, 'never');
    c.draw();
  }

  // <details> keep their open/closed state across re-renders.
  const opened = new Map();
  function details(key, dflt, summary, ...body) {
    const isOpen = opened.has(key) ? opened.get(key) : dflt;
    const el = h('details', { class: `sb-stack`, open: isOpen ? true : null, 'data-key': key }, h('summary', summary), ...body);
    el.addEventListener('toggle', () => opened.set(key, el.open));
    return el;
  }

  function button(m, ch, names, extra = {}) {
    return h(
      'button',
      {
        type: 'button',
        class: extra.primary ? 'primary' : null,
        'data-key': choiceKey(ch),
        'data-action': ch.action,
        disabled: busy,
        onclick: () => send(m, ch),
      },
      choiceLabel(m, ch, names),
    );
  }

  // Legal choices split by the card they act on; the rest stay general.
  function groupChoices(m) {
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

  function phaseTrack(v) {
    const cur = v.step === 'discard' ? 'end' : v.step;
    return h(
      'ol.sb-phases',
      { 'aria-label': 'Phases of the turn' },
      PHASES.map(([id, label]) => h('li', { class: id === cur ? 'sb-now' : null, 'aria-current': id === cur ? 'step' : null }, label)),
    );
  }

  function resultPanel(m) {
    const r = m.result;
    if (m.status === 'running' || !r) return null;
    const winners = r.winners || [];
    let headline;
    if (r.draw || !winners.length) headline = 'The game is a draw';
    else if (!m.spectator) headline = winners.includes(m.you) ? 'You won!' : 'Game over';
    else headline = `${listText(winners.map((s) => seatName(m.seats, s)))} won`;
    return h(
      'section.panel.result',
      { 'aria-labelledby': 'result-h', 'data-testid': 'result', class: !m.spectator && winners.includes(m.you) ? 'good' : 'plain' },
      h('h2#result-h', headline),
      h('p.result-sub', `After ${r.turns} turns. ${winners.length ? `Winner: ${listText(winners.map((s) => seatName(m.seats, s)))}.` : ''}`),
      h('p.result-actions', h('a.button', { href: c.ctx.href('/') }, 'Back to the lobbies')),
    );
  }

  function topPanel(m, g, names) {
    const v = m.view;
    const p = v.priority || {};
    const mine = m.myWindow && !m.spectator;
    const over = m.status !== 'running';
    const pass = g.general.find((ch) => ch.action === 'pass');
    const others = g.general.filter((ch) => ch.action !== 'pass');
    const rule = p.my_rule;
    return h(
      'section.panel.sb-top',
      { 'aria-labelledby': 'game-h' },
      h(
        'div.panel-head',
        h('h1#game-h', 'Starbase'),
        m.spectator ? h('span.tag.tag-watch', 'watching') : null,
        !over ? h('span.sb-turn', `Turn ${v.turn}`) : null,
        m.windows[0] ? countdown(m.windows[0].deadline) : null,
      ),
      !over ? phaseTrack(v) : null,
      h('p.status.sb-hint', { role: 'status', 'aria-live': 'polite', 'data-testid': 'sb-hint', class: mine ? 'sb-yours' : null }, over ? 'The game is over.' : hint(m)),
      mine && !over
        ? h(
            'div.sb-bar',
            { role: 'group', 'aria-label': 'Your actions' },
            others.map((ch) => button(m, ch, names)),
            pass ? button(m, pass, names, { primary: true }) : !g.loaded ? h('span.muted', 'Loading your choices…') : null,
          )
        : null,
      !m.spectator && !over
        ? h(
            'p.sb-rule',
            h(
              'label',
              h('input', { type: 'checkbox', checked: auto, 'data-key': 'sb-auto', onchange: (e) => setAuto(m, e.target.checked) }),
              ' Pass automatically in the other players’ turns',
            ),
            rule && rule.until && rule.until !== 'never' ? h('span.muted', ' (on until your turn, unless you are attacked or targeted)') : null,
          )
        : null,
    );
  }

  function playerPanel(m, p, g, names) {
    const v = m.view;
    const you = p.seat === m.you;
    const prio = v.priority && v.priority.holder === p.seat;
    const acts = (list) => (list || []).map((ch) => button(m, ch, names));
    const baseButtons = you && g.upgrade ? [button(m, g.upgrade, names)] : [];
    const row = (title, items, empty) =>
      h('div.sb-zone', h('h4.sb-zone-h', title), items.length ? h('div.sb-cards', items) : h('p.muted.sb-empty', empty));
    return h(
      'section.panel.sb-player',
      { class: `seat-c${p.seat % 4}${v.active === p.seat ? ' sb-active' : ''}${p.alive ? '' : ' sb-out'}`, 'aria-label': `${seatName(m.seats, p.seat)}'s starbase`, 'data-seat': p.seat },
      h(
        'div.sb-player-head',
        seatBadge(m.seats, p.seat, m.you),
        v.active === p.seat ? h('span.tag.tag-live', 'turn') : null,
        prio && m.status === 'running' ? h('span.tag.tag-wait', 'priority') : null,
        !p.alive ? h('span.tag', 'out') : null,
        p.forfeit ? h('span.tag', 'forfeits income') : null,
        h('span.sb-market', p.market_name),
      ),
      h(
        'p.sb-counts',
        h('span', h('strong', `${p.isk}`), ' ISK'),
        h('span', 'income ', h('strong', `${p.income}`)),
        h('span', 'hand ', h('strong', `${p.hand}`)),
        h('span', 'market ', h('strong', `${p.market}`)),
        h('span', 'scrapheap ', h('strong', `${p.scrapheap.length}`)),
      ),
      h('div.sb-cards', starbaseCard(m, p, baseButtons), p.structures.map((s) => sbCard(m, s, { where: 'structure', buttons: acts(g.byCard.get(s.id)) }))),
      p.news.length ? row('News in play', p.news.map((n) => sbCard(m, n, { where: 'news', buttons: acts(g.byCard.get(n.id)) })), '') : null,
      row('Dock', p.dock.map((s) => sbCard(m, s, { where: 'dock', buttons: acts(g.byCard.get(s.id)) })), 'No ships in the dock.'),
      p.scrapheap.length ? details(`scrap-${p.seat}`, false, `Scrapheap (${p.scrapheap.length})`, h('div.sb-cards', p.scrapheap.map((o) => sbCard(m, o, { where: 'scrap' })))) : null,
      p.outer_regions.length
        ? details(
            `stack-${p.seat}`,
            you && p.outer_regions.some((o) => g.byCard.has(o.id)),
            `Outer region stack (${p.outer_regions.length})`,
            h('div.sb-cards', p.outer_regions.map((o) => sbCard(m, o, { where: 'stack', buttons: acts(g.byCard.get(o.id)) }))),
          )
        : null,
    );
  }

  function regionPanel(m, r, g, names) {
    const v = m.view;
    const attacked = (v.attacks || []).some((a) => a.region === r.id);
    const ctrl = r.controller === null || r.controller === undefined ? 'uncontrolled' : `controlled by ${who(m, r.controller)}`;
    const cls = `${r.kind === 'home' ? `sb-home seat-c${r.id % 4}` : 'sb-outer'}${r.controller !== null && r.controller !== undefined ? ` sb-ctrl seat-c${r.controller % 4}` : ''}${attacked ? ' sb-under-attack' : ''}`;
    const items = [
      ...r.locations.map((l) => sbCard(m, l, { where: 'location', buttons: (g.byCard.get(l.id) || []).map((ch) => button(m, ch, names)) })),
      ...r.ships.map((s) => sbCard(m, s, { where: 'region', buttons: (g.byCard.get(s.id) || []).map((ch) => button(m, ch, names)) })),
    ];
    const title = r.kind === 'home' ? `${who(m, r.id)}'s home region` : r.name;
    const regionText = r.card && (v.cards || {})[r.card.key];
    return h(
      'section.sb-region',
      { class: cls, 'aria-label': `${title}, ${ctrl}`, 'data-region': r.id },
      h(
        'header.sb-region-head',
        h('h3', title),
        h('span.sb-ctrl-tag', ctrl),
        r.kind === 'outer' ? h('span.tag', `income ${r.income}`) : null,
        attacked ? h('span.tag.sb-attack-tag', 'under attack') : null,
      ),
      regionText && regionText.text ? h('p.sb-text', regionText.text) : null,
      r.card && g.byCard.has(r.card.id) ? h('div.sb-acts', g.byCard.get(r.card.id).map((ch) => button(m, ch, names))) : null,
      items.length ? h('div.sb-cards', items) : h('p.muted.sb-empty', 'No ships or locations.'),
    );
  }

  function handPanel(m, g, names) {
    const v = m.view;
    if (m.spectator || !v.hand) return null;
    return h(
      'section.panel.sb-hand',
      { 'aria-labelledby': 'sb-hand-h' },
      h('h2#sb-hand-h', `Your hand (${v.hand.length})`),
      v.hand.length
        ? h(
            'div.sb-cards',
            v.hand.map((cd) => sbCard(m, cd, { where: 'hand', buttons: (g.byCard.get(cd.id) || []).map((ch) => button(m, ch, names)) })),
          )
        : h('p.muted', 'Your hand is empty.'),
    );
  }

  function howTo() {
    const el = details('howto', false, h('strong', 'How to play Starbase'),
      h(
        'ul',
        HOW_TO_PLAY.map((t) => h('li', t)),
      ),
      h('p.muted', 'ATK attack, DEF defence, INC income; the tabs I–IV on a ship are its assembly countdown.'),
    );
    el.className = 'panel sb-howto';
    return el;
  }

  return {
    update(root, m) {
      const v = m.view || {};
      if (!v.players) {
        render(root, h('p.muted', 'Loading the table…'));
        return;
      }
      rearm(m);
      const names = cardIndex(v);
      const g = groupChoices(m);
      // Plays that have no card on the table to sit on (defensive: every
      // legal play stays reachable).
      const shown = new Set();
      for (const p of v.players) for (const z of [p.structures, p.news, p.dock, p.outer_regions]) z.forEach((x) => shown.add(x.id));
      for (const r of v.regions) {
        r.ships.forEach((x) => shown.add(x.id));
        r.locations.forEach((x) => shown.add(x.id));
        if (r.card) shown.add(r.card.id);
      }
      (v.hand || []).forEach((x) => shown.add(x.id));
      for (const [id, list] of g.byCard) if (!shown.has(id)) g.general.push(...list);
      const lines = m.log.map((e) => describe(e, m)).filter(Boolean);
      const order = [...v.players].sort((a, b) => (a.seat === m.you ? -1 : b.seat === m.you ? 1 : a.seat - b.seat));
      const homes = v.regions.filter((r) => r.kind === 'home');
      const outers = v.regions.filter((r) => r.kind === 'outer');
      render(
        root,
        h(
          'div.sb-layout',
          { dataset: { window: g.loaded && m.myWindow ? m.myWindow.id : '', turn: v.turn, step: v.step, version: m.version } },
          h(
            'div.sb-main',
            resultPanel(m),
            topPanel(m, g, names),
            handPanel(m, g, names),
            h(
              'section.panel.sb-regions',
              { 'aria-labelledby': 'sb-regions-h' },
              h('h2#sb-regions-h', 'Regions'),
              h('div.sb-region-grid', homes.map((r) => regionPanel(m, r, g, names)), outers.map((r) => regionPanel(m, r, g, names))),
              outers.length ? null : h('p.muted', 'No outer region is in play yet: put one into play from your outer region stack.'),
            ),
            order.map((p) => playerPanel(m, p, g, names)),
          ),
          h('div.sb-side', howTo(), logPanel(lines)),
        ),
      );
    },
  };
}
