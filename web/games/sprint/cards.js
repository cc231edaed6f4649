// cards.js - Galactic Sprint cards drawn from the card data in the view
// (no image files): cost or defence, VP, income, explore and military
// icons, colour, faction and ability text, in a full size for the hand and
// a compact one for empires. Every icon has a text alternative.

import { h, svg } from '../../ui.js';
import { isMilitaryWorld } from './sprintrules.js';

const ICONS = {
  income:
    '<svg viewBox="0 0 16 16" aria-hidden="true" focusable="false"><rect x="1.5" y="4" width="8" height="10.5" rx="1.5" fill="none" stroke="currentColor" stroke-width="1.4"/><rect x="5.5" y="1.5" width="8" height="10.5" rx="1.5" fill="currentColor"/></svg>',
  explore:
    '<svg viewBox="0 0 16 16" aria-hidden="true" focusable="false"><circle cx="8" cy="8" r="6.3" fill="none" stroke="currentColor" stroke-width="1.4"/><path d="M10.8 5.2 9 9 5.2 10.8 7 7z" fill="currentColor"/></svg>',
  military:
    '<svg viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path d="M8 1.2l2 4.3 4.7.5-3.5 3.2 1 4.6L8 11.4l-4.2 2.4 1-4.6L1.3 6l4.7-.5z" fill="currentColor"/></svg>',
  hand: '<svg viewBox="0 0 16 16" aria-hidden="true" focusable="false"><rect x="2" y="3" width="7" height="10" rx="1.2" fill="none" stroke="currentColor" stroke-width="1.3" transform="rotate(-10 5.5 8)"/><rect x="7" y="3" width="7" height="10" rx="1.2" fill="currentColor" transform="rotate(8 10.5 8)"/></svg>',
};

export function icon(kind, n, label) {
  const text = label || `${n} ${kind}`;
  return h(
    'span.icon',
    { class: `icon-${kind}`, role: 'img', 'aria-label': text, title: text },
    svg(ICONS[kind]),
    n !== undefined && n !== null ? h('span.icon-n', { 'aria-hidden': 'true' }, String(n)) : null,
  );
}

export function kindText(d) {
  if (d.type !== 'world') return d.central ? 'Development · central' : 'Development';
  const parts = [
    `${d.colour[0].toUpperCase()}${d.colour.slice(1)} ${d.military_world ? 'military world' : 'world'}`,
  ];
  if (d.faction) parts.push(d.faction);
  return parts.join(' · ');
}

// A sentence a screen reader reads for the card.
export function cardLabel(d) {
  const bits = [d.name, kindText(d)];
  bits.push(isMilitaryWorld(d) ? `defence ${d.defence}` : `cost ${d.cost}`);
  if (d.vp) bits.push(`${d.vp} VP`);
  if (d.income) bits.push(`${d.income} income`);
  if (d.explore) bits.push(`${d.explore} explore`);
  if (d.military) bits.push(`${d.military} military`);
  if (d.text) bits.push(d.text);
  return bits.join(', ');
}

// Small generated art: a planet for worlds (a ring for military ones, a
// flag for rebels, an eye for aliens), a station module for developments.
function art(d) {
  if (d.type === 'world') {
    const extra = [
      d.military_world
        ? '<ellipse cx="60" cy="22" rx="27" ry="6" fill="none" stroke="var(--ring)" stroke-width="2" stroke-dasharray="4 3"/>'
        : '',
      d.faction === 'rebel'
        ? '<path d="M92 8v22M92 9h12l-3 4 3 4H92" fill="var(--flag)" stroke="var(--ink-soft)" stroke-width="1.2"/>'
        : '',
      d.faction === 'alien'
        ? '<path d="M16 22c4-6 14-6 18 0-4 6-14 6-18 0z" fill="none" stroke="var(--ink-soft)" stroke-width="1.5"/><circle cx="25" cy="22" r="2.4" fill="var(--ink-soft)"/>'
        : '',
    ].join('');
    return svg(
      `<svg class="card-art" viewBox="0 0 120 44" aria-hidden="true" focusable="false"><circle cx="14" cy="9" r="1" fill="currentColor" opacity=".5"/><circle cx="104" cy="36" r="1.2" fill="currentColor" opacity=".5"/><circle cx="76" cy="6" r=".9" fill="currentColor" opacity=".5"/><circle cx="60" cy="22" r="15" fill="var(--world)"/><circle cx="55" cy="17" r="5" fill="#fff" opacity=".25"/>${extra}</svg>`,
    );
  }
  return svg(
    `<svg class="card-art" viewBox="0 0 120 44" aria-hidden="true" focusable="false"><path d="M60 7l14 8v14l-14 8-14-8V15z" fill="none" stroke="var(--dev)" stroke-width="2.4"/><path d="M60 15l7 4v7l-7 4-7-4v-7z" fill="var(--dev)"/><path d="M32 22h12M76 22h12" stroke="var(--dev)" stroke-width="2"/>${d.central ? '<circle cx="60" cy="22" r="19" fill="none" stroke="var(--dev)" stroke-width="1" stroke-dasharray="2 3"/>' : ''}</svg>`,
  );
}

function costBadge(d) {
  if (isMilitaryWorld(d))
    return h(
      'span.badge.defence',
      {
        role: 'img',
        'aria-label': `defence ${d.defence}`,
        title: 'Defence: conquer with this much military',
      },
      String(d.defence),
    );
  return h(
    'span.badge.cost',
    { role: 'img', 'aria-label': `cost ${d.cost}`, title: 'Cost: cards to discard' },
    String(d.cost),
  );
}

function vpBadge(d) {
  return h(
    'span.badge.vp',
    { role: 'img', 'aria-label': `${d.vp} VP`, title: 'Victory points' },
    String(d.vp),
  );
}

function icons(d) {
  const list = [];
  if (d.income) list.push(icon('income', d.income, `${d.income} income`));
  if (d.explore) list.push(icon('explore', d.explore, `${d.explore} explore`));
  if (d.military) list.push(icon('military', d.military, `${d.military} military`));
  return list.length ? h('div.card-icons', list) : h('div.card-icons.none');
}

function classes(d, extra = '') {
  const c = ['card', d.type === 'world' ? 'card-world' : 'card-dev'];
  if (d.type === 'world') c.push(`c-${d.colour}`);
  if (isMilitaryWorld(d)) c.push('military');
  if (d.central) c.push('central');
  if (extra) c.push(extra);
  return c.join(' ');
}

// The full card. opts: {id, tag ('button' or 'div'), onClick, pressed,
// role (a badge: 'placing', 'paying', 'discarding'), note, key, disabled}.
export function cardFace(d, opts = {}) {
  const tag = opts.onClick ? 'button' : 'div';
  const label = [cardLabel(d), opts.roleText].filter(Boolean).join('. ');
  return h(
    tag,
    {
      class: classes(
        d,
        [
          opts.role ? `role-${opts.role}` : '',
          opts.playable ? 'playable' : '',
          opts.dim ? 'dim' : '',
        ]
          .filter(Boolean)
          .join(' '),
      ),
      type: tag === 'button' ? 'button' : null,
      'data-card-id': opts.id,
      'data-card': d.key,
      'data-key': opts.key,
      'data-can-place': opts.canPlace || null,
      'aria-pressed': opts.pressed === undefined ? null : String(!!opts.pressed),
      // A button is named by what it shows (its badges and icons have text
      // alternatives); a card that is not a button carries the sentence.
      'aria-label': tag === 'div' ? label : null,
      role: tag === 'div' ? 'listitem' : null,
      disabled: opts.disabled,
      onclick: opts.onClick,
    },
    h('div.card-head', costBadge(d), h('span.card-name', d.name)),
    h('div.card-sub', h('span.card-kind', kindText(d)), vpBadge(d)),
    art(d),
    icons(d),
    h('p.card-text', d.text || ''),
    opts.roleText
      ? h('span.card-role', tag === 'button' ? null : { 'aria-hidden': 'true' }, opts.roleText)
      : null,
    opts.note ? h('span.card-note', { 'aria-hidden': 'true' }, opts.note) : null,
  );
}

// The compact card of an empire.
export function cardMini(d, opts = {}) {
  return h(
    'div',
    {
      class: classes(d, 'mini'),
      role: 'listitem',
      'data-card-id': opts.id,
      'data-card': d.key,
      'aria-label': cardLabel(d) + (opts.conquered ? '. Conquered' : ''),
      title: d.text || null,
    },
    h('div.mini-head', h('span.mini-name', d.name), vpBadge(d)),
    h('div.mini-line', h('span.mini-kind', d.type === 'world' ? d.colour : 'dev'), icons(d)),
    d.text ? h('p.mini-text', d.text) : null,
  );
}
