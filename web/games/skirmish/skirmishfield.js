// skirmishfield.js - the Skirmish field: 5 columns by 6 rows of square
// buttons, your own home rows at the bottom (seat 0's rows 1-3, seat 1's
// rows 4-6; a spectator sees seat 0 at the bottom), each creature drawn as
// a small card from the view's units and designs; and the full card of one
// creature for the detail panel.

import { h } from '../../ui.js';
import { seatName } from '../../gamekit.js';

export const COLS = 'abcde';

// Rows from the top of the screen down.
export function rowOrder(you) {
  return you === 1 ? [1, 2, 3, 4, 5, 6] : [6, 5, 4, 3, 2, 1];
}

export function homeRows(seat) {
  return seat === 1 ? [4, 5, 6] : [1, 2, 3];
}

// Home squares front row first, each row from column a (the deployment
// default of the rules).
export function homeSquares(seat) {
  const rows = seat === 1 ? [4, 5, 6] : [3, 2, 1];
  const out = [];
  for (const r of rows) for (const c of COLS) out.push(c + r);
  return out;
}

const KEYWORD = { flying: 'Flying', first_strike: 'First strike', regeneration: 'Regen' };

// Short tags for the small card: keywords and how many other abilities.
function tagsOf(d) {
  const tags = [];
  let more = 0;
  for (const a of (d && d.abilities) || []) {
    if (KEYWORD[a.kind] && a.timing === 'static')
      tags.push(a.amount ? `${KEYWORD[a.kind]} ${a.amount}` : KEYWORD[a.kind]);
    else if (a.kind !== 'strike_mod' && a.kind !== 'armour') more += 1;
  }
  if (more) tags.push(`✦${more}`);
  return tags;
}

export function strikeText(d) {
  return d && d.strike ? d.strike.join('/') : '?';
}

// Screen-reader text for a creature on a square.
export function unitSpeech(u, d, you, seats) {
  const whose = u.owner === you ? 'yours' : seatName(seats, u.owner);
  const bits = [
    `${u.name} (${whose})`,
    `life ${u.life} of ${u.max_life}`,
    `move ${u.move}`,
    `strike ${strikeText(d)}`,
  ];
  if (u.armour) bits.push(`armour ${u.armour}`);
  if (u.tokens) bits.push(`${u.tokens} tokens`);
  if (u.poison) bits.push(`poisoned ${u.poison}`);
  if (u.closed) bits.push('closed');
  return bits.join(', ');
}

// The small card drawn on a square.
export function unitCard(u, d) {
  const hurt = u.life < u.max_life;
  return h(
    'span.sk-unit',
    { class: `seat-c${u.owner}${u.closed ? ' closed' : ''}`, 'aria-hidden': 'true' },
    h('span.sk-name', u.name),
    h(
      'span.sk-stats',
      h('span.sk-life', { class: hurt ? 'hurt' : null, title: 'life' }, `♥${u.life}`),
      h('span.sk-move', { title: 'movement points' }, `➜${u.move}`),
      h('span.sk-strike', { title: 'strike: weak/medium/strong' }, `⚔${strikeText(d)}`),
    ),
    h(
      'span.sk-tags',
      tagsOf(d).map((t) => h('span.sk-tag', t)),
      u.armour ? h('span.sk-tag.arm', `Armour ${u.armour}`) : null,
      u.tokens ? h('span.sk-tag.tok', `◆${u.tokens}`) : null,
      u.poison ? h('span.sk-tag.poison', `☠${u.poison}`) : null,
      u.closed ? h('span.sk-tag.closed', 'closed') : null,
    ),
  );
}

// The field. cell(square, unit|null) returns {cls, disabled, onclick,
// label, mark} for each square's button.
export function fieldGrid(v, you, cell, { caption = 'Field' } = {}) {
  const at = new Map();
  for (const u of v.units || []) if (u.square && u.alive !== false) at.set(u.square, u);
  const rows = rowOrder(you);
  const cells = [];
  for (const r of rows) {
    cells.push(h('span.sk-rowlab', { 'aria-hidden': 'true' }, String(r)));
    for (const col of COLS) {
      const sq = col + r;
      const u = at.get(sq) || null;
      const d = u && v.cards ? v.cards[u.key] : null;
      const o = cell(sq, u) || {};
      const home = r <= 3 ? 'home0' : 'home1';
      cells.push(
        h(
          'button.sk-sq',
          {
            type: 'button',
            'data-square': sq,
            'data-key': `sq-${sq}`,
            'data-unit': u ? u.id : null,
            class: [home, u ? 'has-unit' : 'empty', o.cls || ''].join(' '),
            disabled: !!o.disabled,
            'aria-label': `${sq}: ${o.label || (u ? unitSpeech(u, d, you, o.seats) : 'empty')}`,
            'aria-pressed': o.pressed === undefined ? null : String(!!o.pressed),
            onclick: o.onclick,
          },
          u ? unitCard(u, d) : o.ghost || null,
          o.mark ? h('span.sk-mark', { 'aria-hidden': 'true' }, o.mark) : null,
        ),
      );
    }
  }
  cells.push(h('span.sk-rowlab', { 'aria-hidden': 'true' }, ''));
  for (const col of COLS) cells.push(h('span.sk-collab', { 'aria-hidden': 'true' }, col));
  return h('div.sk-field', { role: 'group', 'aria-label': caption }, cells);
}

// The whole card of one creature (or one design, u null) for the details.
export function fullCard(d, u, seats, you) {
  const auras = u && u.auras ? Object.entries(u.auras).filter(([, x]) => x) : [];
  return h(
    'div.sk-card',
    { class: u ? `seat-c${u.owner}` : null },
    h(
      'div.sk-card-head',
      h('strong', d ? d.name : u.name),
      d ? h('span.sk-cost', { 'aria-label': `cost ${d.cost}` }, `cost ${d.cost}`) : null,
    ),
    u
      ? h(
          'p.sk-card-owner',
          u.owner === you ? 'Yours' : seatName(seats, u.owner),
          u.square ? ` · on ${u.square}` : u.alive === false ? ' · destroyed' : '',
          u.closed ? ' · closed' : ' · open',
        )
      : null,
    h(
      'dl.sk-card-stats',
      h('dt', 'Life'),
      h('dd', u ? `${u.life} of ${u.max_life}` : String(d.life)),
      h('dt', 'Move'),
      h('dd', u ? `${u.move} left of ${d ? d.move : '?'}` : String(d.move)),
      h('dt', 'Strike'),
      h('dd', d ? `${d.strike[0]} weak / ${d.strike[1]} medium / ${d.strike[2]} strong` : '?'),
      u && u.armour ? [h('dt', 'Armour'), h('dd', String(u.armour))] : null,
      (u ? u.tokens : d && d.tokens)
        ? [h('dt', 'Tokens'), h('dd', String(u ? u.tokens : d.tokens))]
        : null,
      u && u.poison
        ? [h('dt', 'Poison'), h('dd', `loses ${u.poison} life at the end of its controller's turn`)]
        : null,
      auras.length
        ? [
            h('dt', 'Until end of turn'),
            h('dd', auras.map(([k, x]) => `${x > 0 ? '+' : ''}${x} ${k}`).join(', ')),
          ]
        : null,
    ),
    d && d.abilities && d.abilities.length
      ? h(
          'ul.sk-abilities',
          d.abilities.map((a) => h('li', a.text)),
        )
      : h('p.muted', 'No abilities besides its attack.'),
  );
}
