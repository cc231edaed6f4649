// starbasecards.js - Starbase cards drawn from the design catalogue in the
// view (view.cards, key -> design with its texts): name, kind, price,
// attack/defence with damage, commands with the active one marked, the
// assembly countdown tabs I-IV, income, duration left, and the buttons of
// the plays the card offers. Also the starbase card itself. No images;
// everything drawn is also said in text.

import { h } from '../../ui.js';
import { ROMAN } from './starbasetext.js';

const KIND = {
  ship: 'Ship',
  location: 'Location',
  news: 'News',
  outer_region: 'Outer region',
  structure: 'Structure',
};

function durationText(d) {
  if (d === 'infinite') return '∞';
  if (!d) return 'at once';
  return ROMAN[d] || String(d);
}

function kindLine(d) {
  const bits = [KIND[d.kind] || d.kind];
  if (d.kind === 'location')
    bits.push(`${d.region === 'any' ? 'any region' : `${d.region} region`}`);
  if (d.kind === 'news') {
    bits.push(d.duration ? `lasts ${durationText(d.duration)}` : 'at once');
    if (d.instant) bits.push('instant');
  }
  return bits.join(' · ');
}

// The assembly countdown as tabs I..N: tabs already counted down are
// struck, the current one is marked; with `left` null all are plain.
function assemblyTabs(n, left) {
  if (!n) return null;
  const tabs = [];
  for (let k = n; k >= 1; k--) {
    const state = left === null ? '' : k > left ? 'done' : k === left ? 'now' : '';
    tabs.push(
      h(
        'span.sb-tab',
        { class: state ? `sb-tab-${state}` : null, 'aria-hidden': 'true' },
        ROMAN[k],
      ),
    );
  }
  const label =
    left === null
      ? `assembly ${ROMAN[n]}`
      : left > 0
        ? `being assembled, ${ROMAN[left]} left`
        : 'assembled';
  return h('span.sb-tabs', { role: 'img', 'aria-label': label, title: label }, tabs);
}

function stat(label, short, value, extra) {
  return h(
    'span.sb-stat',
    { title: label },
    h('abbr', { title: label }, short),
    ` ${value}`,
    extra || null,
  );
}

// A card. inst: the view's card object (id, key, name, price, and the
// ship's live numbers); opts: {where: 'hand'|'dock'|'region'|'news'|...,
// buttons: [elements], tags: [strings]}.
export function sbCard(m, inst, opts = {}) {
  const d = (m.view.cards || {})[inst.key] || {
    kind: inst.kind,
    name: inst.name,
    price: inst.price,
  };
  const where = opts.where || 'hand';
  const ship = d.kind === 'ship';
  const tags = [...(opts.tags || [])];
  const inDock = where === 'dock';
  if (ship && inDock) tags.push(inst.countdown > 0 ? 'assembling' : 'docked');
  if (inst.attacking) tags.push('attacking');
  if (inst.pinned) tags.push('pinned');
  if (where === 'news' && inst.duration_left !== undefined)
    tags.push(
      inst.duration_left === 'infinite'
        ? 'lasts ∞'
        : `${ROMAN[inst.duration_left] || inst.duration_left} left`,
    );
  const attack = inst.attack !== undefined ? inst.attack : d.attack;
  const defence = inst.defence !== undefined ? inst.defence : d.defence;
  const stats = [];
  if (ship) {
    stats.push(stat('attack', 'ATK', attack));
    stats.push(
      stat(
        'defence',
        'DEF',
        defence,
        inst.damage ? h('span.sb-dmg', ` (${inst.damage} dmg)`) : null,
      ),
    );
  }
  if (d.income !== undefined && (d.kind === 'location' || d.kind === 'outer_region'))
    stats.push(stat('income', 'INC', d.income));
  if (ship && d.assembly)
    stats.push(assemblyTabs(d.assembly, inDock ? inst.countdown : where === 'hand' ? null : 0));
  const cmds = ship
    ? h(
        'ul.sb-cmds',
        (d.commands || []).map((c, k) => {
          const on = inst.command_index === k;
          return h(
            'li',
            { class: on ? 'sb-cmd-on' : null },
            on ? h('span.sb-on', 'active') : null,
            c.text,
          );
        }),
      )
    : d.text
      ? h('p.sb-text', d.text)
      : null;
  const owner = inst.owner;
  return h(
    'article.sb-card',
    {
      class: `sb-k-${d.kind}${owner !== undefined ? ` seat-c${owner % 4}` : ''}${inst.attacking ? ' sb-attacking' : ''}`,
      'aria-label': `${d.name}, ${kindLine(d)}, price ${d.price}`,
      dataset: { card: inst.id, key: inst.key },
    },
    h(
      'header.sb-card-head',
      h('h4.sb-card-name', d.name),
      h(
        'span.sb-price',
        { title: `price ${d.price} ISK`, 'aria-label': `price ${d.price} ISK` },
        `${d.price}`,
      ),
    ),
    h('p.sb-kind', kindLine(d)),
    stats.length ? h('p.sb-stats', stats) : null,
    cmds,
    tags.length
      ? h(
          'p.sb-tags',
          tags.map((t) => h('span.tag', t)),
        )
      : null,
    opts.buttons && opts.buttons.length ? h('div.sb-acts', opts.buttons) : null,
    opts.why
      ? h('p.sb-why', { dataset: { reason: opts.why.reason } }, `Cannot play: ${opts.why.text}.`)
      : null,
  );
}

// The starbase of player p (the view's player object).
export function starbaseCard(m, p, buttons) {
  const b = p.starbase;
  const up = b.upgrade_to;
  return h(
    'article.sb-card.sb-base',
    {
      class: `seat-c${p.seat % 4}`,
      'aria-label': `Starbase ${b.name}${b.upgraded ? ', upgraded' : ''}`,
    },
    h(
      'header.sb-card-head',
      h('h4.sb-card-name', b.name),
      b.upgraded ? h('span.tag.tag-done', 'upgraded') : null,
    ),
    h('p.sb-kind', `Starbase · ${b.slots} structure slot${b.slots === 1 ? '' : 's'}`),
    h(
      'p.sb-stats',
      stat('income', 'INC', b.income),
      stat('hull left', 'HULL', Math.max(0, b.hull - b.damage), h('span.sb-of', ` / ${b.hull}`)),
      stat('attack (guns)', 'ATK', b.attack),
    ),
    h(
      'div.sb-hullbar',
      {
        role: 'meter',
        'aria-label': 'hull left',
        'aria-valuemin': 0,
        'aria-valuemax': b.hull,
        'aria-valuenow': Math.max(0, b.hull - b.damage),
      },
      h('span', {
        style: { width: `${Math.max(0, (100 * (b.hull - b.damage)) / Math.max(1, b.hull))}%` },
      }),
    ),
    up
      ? h(
          'p.sb-text',
          `Upgrade for ${b.upgrade_price} ISK to ${up.name}: income ${up.income}, hull ${up.hull}, attack ${up.attack}, ${up.slots} slots.`,
        )
      : null,
    buttons && buttons.length ? h('div.sb-acts', buttons) : null,
  );
}
