// starbasepanels.js - the panels of the Starbase table, each drawn from
// the table context t = {c, m, g, names, button, details, auto, setAuto}
// that starbase.js builds for one update: the result, the top panel (turn,
// phases, players' counts, the hint, the action bar, the automatic pass),
// your hand, a region, a player's starbase side of the table and the "how
// to play" panel.

import { h } from '../../ui.js';
import { seatBadge, seatName, countdown, listText } from '../../gamekit.js';
import { sbCard, starbaseCard } from './starbasecards.js';
import { PHASES, HOW_TO_PLAY, hint, who } from './starbasetext.js';

function phaseTrack(v) {
  const cur = v.step === 'discard' ? 'end' : v.step;
  return h(
    'ol.sb-phases',
    { 'aria-label': 'Phases of the turn' },
    PHASES.map(([id, label]) =>
      h(
        'li',
        { class: id === cur ? 'sb-now' : null, 'aria-current': id === cur ? 'step' : null },
        label,
      ),
    ),
  );
}

export function resultPanel(t) {
  const m = t.m;
  const r = m.result;
  if (m.status === 'running' || !r) return null;
  const winners = r.winners || [];
  let headline;
  if (r.draw || !winners.length) headline = 'The game is a draw';
  else if (!m.spectator) headline = winners.includes(m.you) ? 'You won!' : 'You lost';
  else headline = `${listText(winners.map((s) => seatName(m.seats, s)))} won`;
  return h(
    'section.panel.result',
    {
      'aria-labelledby': 'result-h',
      'data-testid': 'result',
      class: !m.spectator && winners.includes(m.you) ? 'good' : 'plain',
    },
    h('h2#result-h', headline),
    h(
      'p.result-sub',
      `After ${r.turns} turns. ${winners.length ? `Winner: ${listText(winners.map((s) => seatName(m.seats, s)))}.` : ''}`,
    ),
    h('p.result-actions', h('a.button', { href: t.c.ctx.href('/') }, 'Back to the lobbies')),
  );
}

export function topPanel(t) {
  const { m, g } = t;
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
    h(
      'ul.sb-summary',
      { 'aria-label': 'Players' },
      v.players.map((p) =>
        h(
          'li',
          { class: `seat-c${p.seat % 4}${p.alive ? '' : ' sb-out'}` },
          h('span.seat-swatch', { 'aria-hidden': 'true' }),
          h('strong', p.seat === m.you ? 'You' : who(m, p.seat)),
          ` ${p.isk} ISK · income ${p.income} · hull ${Math.max(0, p.starbase.hull - p.starbase.damage)}/${p.starbase.hull} · hand ${p.hand} · market ${p.market}`,
          p.alive ? null : ' · out',
        ),
      ),
    ),
    h(
      'p.status.sb-hint',
      {
        role: 'status',
        'aria-live': 'polite',
        'data-testid': 'sb-hint',
        'data-key': 'sb-hint',
        tabindex: '-1',
        class: mine ? 'sb-yours' : null,
      },
      over ? 'The game is over.' : hint(m),
    ),
    mine && !over
      ? h(
          'div.sb-bar',
          { role: 'group', 'aria-label': 'Your actions' },
          others.map((ch) => t.button(ch)),
          pass
            ? t.button(pass, { primary: true })
            : !g.loaded
              ? h('span.muted', 'Loading your choices…')
              : null,
        )
      : null,
    !m.spectator && !over
      ? h(
          'p.sb-rule',
          h(
            'label',
            h('input', {
              type: 'checkbox',
              checked: t.auto,
              'data-key': 'sb-auto',
              onchange: (e) => t.setAuto(e.target.checked),
            }),
            ' Pass automatically in the other players’ turns',
          ),
          rule && rule.until && rule.until !== 'never'
            ? h('span.muted', ' (on until your turn, unless you are attacked or targeted)')
            : null,
        )
      : null,
  );
}

export function playerPanel(t, p) {
  const { m, g } = t;
  const v = m.view;
  const you = p.seat === m.you;
  const prio = v.priority && v.priority.holder === p.seat;
  const acts = (list) => (list || []).map((ch) => t.button(ch));
  const baseButtons = you && g.upgrade ? [t.button(g.upgrade)] : [];
  const row = (title, items, empty) =>
    h(
      'div.sb-zone',
      h('h4.sb-zone-h', title),
      items.length ? h('div.sb-cards', items) : h('p.muted.sb-empty', empty),
    );
  return h(
    'section.panel.sb-player',
    {
      class: `seat-c${p.seat % 4}${v.active === p.seat ? ' sb-active' : ''}${p.alive ? '' : ' sb-out'}`,
      'aria-label': `${seatName(m.seats, p.seat)}'s starbase`,
      'data-seat': p.seat,
    },
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
    h(
      'div.sb-cards',
      starbaseCard(m, p, baseButtons),
      p.structures.map((s) =>
        sbCard(m, s, { where: 'structure', buttons: acts(g.byCard.get(s.id)) }),
      ),
    ),
    p.news.length
      ? row(
          'News in play',
          p.news.map((n) => sbCard(m, n, { where: 'news', buttons: acts(g.byCard.get(n.id)) })),
          '',
        )
      : null,
    row(
      'Dock',
      p.dock.map((s) => sbCard(m, s, { where: 'dock', buttons: acts(g.byCard.get(s.id)) })),
      'No ships in the dock.',
    ),
    p.scrapheap.length
      ? t.details(
          `scrap-${p.seat}`,
          false,
          `Scrapheap (${p.scrapheap.length})`,
          h(
            'div.sb-cards',
            p.scrapheap.map((o) => sbCard(m, o, { where: 'scrap' })),
          ),
        )
      : null,
    p.outer_regions.length
      ? t.details(
          `stack-${p.seat}`,
          you && p.outer_regions.some((o) => g.byCard.has(o.id)),
          `Outer region stack (${p.outer_regions.length})`,
          h(
            'div.sb-cards',
            p.outer_regions.map((o) =>
              sbCard(m, o, { where: 'stack', buttons: acts(g.byCard.get(o.id)) }),
            ),
          ),
        )
      : null,
  );
}

export function regionPanel(t, r) {
  const { m, g } = t;
  const v = m.view;
  const attacked = (v.attacks || []).some((a) => a.region === r.id);
  const ctrl =
    r.controller === null || r.controller === undefined
      ? 'uncontrolled'
      : `controlled by ${who(m, r.controller)}`;
  const cls = `${r.kind === 'home' ? `sb-home seat-c${r.id % 4}` : 'sb-outer'}${r.controller !== null && r.controller !== undefined ? ` sb-ctrl seat-c${r.controller % 4}` : ''}${attacked ? ' sb-under-attack' : ''}`;
  const items = [
    ...r.locations.map((l) =>
      sbCard(m, l, {
        where: 'location',
        buttons: (g.byCard.get(l.id) || []).map((ch) => t.button(ch)),
      }),
    ),
    ...r.ships.map((s) =>
      sbCard(m, s, {
        where: 'region',
        buttons: (g.byCard.get(s.id) || []).map((ch) => t.button(ch)),
      }),
    ),
  ];
  const title =
    r.kind !== 'home'
      ? r.name
      : r.id === m.you
        ? 'Your home region'
        : `${who(m, r.id)}'s home region`;
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
    r.card && g.byCard.has(r.card.id)
      ? h(
          'div.sb-acts',
          g.byCard.get(r.card.id).map((ch) => t.button(ch)),
        )
      : null,
    items.length ? h('div.sb-cards', items) : h('p.muted.sb-empty', 'No ships or locations.'),
  );
}

export function handPanel(t) {
  const { m, g } = t;
  const v = m.view;
  if (m.spectator || !v.hand) return null;
  return h(
    'section.panel.sb-hand',
    { 'aria-labelledby': 'sb-hand-h' },
    h('h2#sb-hand-h', `Your hand (${v.hand.length})`),
    v.hand.length
      ? h(
          'div.sb-cards',
          v.hand.map((cd) => {
            const buttons = (g.byCard.get(cd.id) || []).map((ch) => t.button(ch));
            // The engine says why a card has no play now (its view's
            // "unplayable"); shown when the card has no button.
            return sbCard(m, cd, {
              where: 'hand',
              buttons,
              why: buttons.length ? null : cd.unplayable,
            });
          }),
        )
      : h('p.muted', 'Your hand is empty.'),
  );
}

export function howTo(t) {
  const el = t.details(
    'howto',
    false,
    h('strong', 'How to play Starbase'),
    h(
      'ul',
      HOW_TO_PLAY.map((line) => h('li', line)),
    ),
    h(
      'p.muted',
      'ATK attack, DEF defence, INC income; the tabs I–IV on a ship are its assembly countdown.',
    ),
  );
  el.className = 'panel sb-howto';
  return el;
}
