// council-map.js - the Galactic Council galaxy as an SVG hex map, drawn
// from one seat's view: unexplored sectors shaded, sectors last seen in an
// earlier round marked with that round, homes in their owner's colour, the
// capital, planets (owner, troopers, marker), fleets, the seat's command
// tokens and the markers it inspected. Pan and zoom with the buttons, a
// drag or the wheel; each sector is a button (click, Enter or Space).
//
// createMap({onSelect}) -> {el, update(galaxy, opts)}; the element is kept
// across updates so the view box and focus survive a redraw.

import { h } from '../../ui.js';
import { SHIPS, unitsText } from './council-text.js';

const NS = 'http://www.w3.org/2000/svg';
const SIZE = 50;
const SQ3 = Math.sqrt(3);

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs))
    if (v !== null && v !== undefined && v !== false) el.setAttribute(k, String(v));
  for (const c of children.flat())
    if (c !== null && c !== undefined && c !== false)
      el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

export function hexCenter(q, r) {
  return [SIZE * SQ3 * (q + r / 2), SIZE * 1.5 * r];
}

function hexPoints(cx, cy, size = SIZE) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 30);
    pts.push(`${(cx + size * Math.cos(a)).toFixed(1)},${(cy + size * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(' ');
}

const shipCount = (units) => SHIPS.reduce((n, k) => n + (units[k] || 0), 0);

// What a sector is, in words, for its button's label.
export function sectorSummary(x, you, round, names) {
  const at = `(${x.q}, ${x.r})`;
  if (!x.explored) return `Unexplored sector ${at}`;
  const bits = [`${x.name} ${at}`];
  if (x.kind === 'capital') bits.push('the capital');
  if (x.home !== null && x.home !== undefined)
    bits.push(x.home === you ? 'your home' : `home of ${names.seat(x.home)}`);
  else if (x.type && x.type !== 'planets') bits.push(x.type.replace(/_/g, ' '));
  const planets = x.planets || [];
  if (planets.length) bits.push(`${planets.length} planet${planets.length > 1 ? 's' : ''}`);
  const fleets = x.fleets || [];
  for (const f of fleets)
    bits.push(
      `${f.seat === you ? 'your' : `${names.seat(f.seat)}'s`} fleet: ${unitsText(f.units)}`,
    );
  if (x.seen_round !== null && x.seen_round !== undefined && !x.live && x.seen_round < round)
    bits.push(`last seen in round ${x.seen_round}`);
  return bits.join(', ');
}

export function createMap({ onSelect }) {
  const svg = s('svg', {
    class: 'cn-map-svg',
    role: 'group',
    'aria-label': 'Galaxy map',
    preserveAspectRatio: 'xMidYMid meet',
  });
  const layer = s('g');
  svg.append(
    s(
      'defs',
      {},
      s(
        'pattern',
        {
          id: 'cn-fog',
          width: 8,
          height: 8,
          patternUnits: 'userSpaceOnUse',
          patternTransform: 'rotate(45)',
        },
        s('rect', { width: 8, height: 8, class: 'cn-fog-bg' }),
        s('line', { x1: 0, y1: 0, x2: 0, y2: 8, class: 'cn-fog-line' }),
      ),
    ),
    layer,
  );
  let home = null; // the full view box
  let vb = null; // the current one
  const apply = () => vb && svg.setAttribute('viewBox', vb.map((n) => n.toFixed(1)).join(' '));
  const zoom = (f, cx, cy) => {
    if (!vb) return;
    const w = Math.min(home[2] * 1.5, Math.max(home[2] / 5, vb[2] * f));
    const k = w / vb[2];
    const h2 = vb[3] * k;
    const px = cx === undefined ? vb[0] + vb[2] / 2 : cx;
    const py = cy === undefined ? vb[1] + vb[3] / 2 : cy;
    vb = [px - (px - vb[0]) * k, py - (py - vb[1]) * k, w, h2];
    apply();
  };
  const pan = (dx, dy) => {
    if (!vb) return;
    vb = [vb[0] + dx * vb[2], vb[1] + dy * vb[3], vb[2], vb[3]];
    apply();
  };
  // Wheel zoom around the pointer; drag to pan (a short move is a click).
  svg.addEventListener(
    'wheel',
    (ev) => {
      if (!vb) return;
      ev.preventDefault();
      const r = svg.getBoundingClientRect();
      const cx = vb[0] + ((ev.clientX - r.left) / r.width) * vb[2];
      const cy = vb[1] + ((ev.clientY - r.top) / r.height) * vb[3];
      zoom(ev.deltaY > 0 ? 1.15 : 1 / 1.15, cx, cy);
    },
    { passive: false },
  );
  let drag = null;
  svg.addEventListener('pointerdown', (ev) => {
    if (!vb || ev.button !== 0 || ev.pointerType === 'touch') return;
    drag = { x: ev.clientX, y: ev.clientY, vb: vb.slice(), moved: false };
  });
  svg.addEventListener('pointermove', (ev) => {
    if (!drag) return;
    const r = svg.getBoundingClientRect();
    const dx = ev.clientX - drag.x;
    const dy = ev.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 6) return;
    if (!drag.moved) svg.setPointerCapture(ev.pointerId);
    drag.moved = true;
    const scale = Math.max(drag.vb[2] / r.width, drag.vb[3] / r.height);
    vb = [drag.vb[0] - dx * scale, drag.vb[1] - dy * scale, vb[2], vb[3]];
    apply();
  });
  const endDrag = (ev) => {
    if (drag && drag.moved) {
      svg.dataset.dragged = '1';
      setTimeout(() => delete svg.dataset.dragged, 0);
      if (svg.hasPointerCapture(ev.pointerId)) svg.releasePointerCapture(ev.pointerId);
    }
    drag = null;
  };
  svg.addEventListener('pointerup', endDrag);
  svg.addEventListener('pointercancel', endDrag);

  const btn = (label, text, fn, key) =>
    h(
      'button.cn-map-btn',
      { type: 'button', 'aria-label': label, title: label, 'data-key': key, onclick: fn },
      text,
    );
  const controls = h(
    'div.cn-map-controls',
    { role: 'group', 'aria-label': 'Map view' },
    btn('Zoom in', '+', () => zoom(1 / 1.3), 'zoom-in'),
    btn('Zoom out', '−', () => zoom(1.3), 'zoom-out'),
    btn('Pan left', '←', () => pan(-0.2, 0), 'pan-left'),
    btn('Pan up', '↑', () => pan(0, -0.2), 'pan-up'),
    btn('Pan down', '↓', () => pan(0, 0.2), 'pan-down'),
    btn('Pan right', '→', () => pan(0.2, 0), 'pan-right'),
    btn(
      'Show the whole galaxy',
      '⤢',
      () => {
        vb = home && home.slice();
        apply();
      },
      'zoom-reset',
    ),
  );
  const el = h('div.cn-map', svg, controls);

  function sectorNode(x, o) {
    const [cx, cy] = hexCenter(x.q, x.r);
    const hex = [x.q, x.r];
    const key = `${x.q},${x.r}`;
    const selected = o.selected && o.selected[0] === x.q && o.selected[1] === x.r;
    const cls = ['cn-sector'];
    if (!x.explored) cls.push('cn-unexplored');
    else
      cls.push(
        `cn-t-${x.kind === 'planets' || !x.kind ? 'system' : x.kind}`,
        `cn-y-${x.type || 'planets'}`,
      );
    if (x.home !== null && x.home !== undefined) cls.push(`cn-home cn-s${x.home}`);
    if (selected) cls.push('cn-selected');
    if (o.targets && o.targets.has(key)) cls.push('cn-target');
    const stale =
      x.explored &&
      x.seen_round !== null &&
      x.seen_round !== undefined &&
      !x.live &&
      x.seen_round < o.round;
    if (stale) cls.push('cn-stale');
    let g = s('g', {
      class: cls.join(' '),
      role: 'button',
      tabindex: '0',
      'data-hex': key,
      'aria-pressed': selected ? 'true' : 'false',
      'aria-label':
        sectorSummary(x, o.you, o.round, o.names) +
        (o.targets && o.targets.has(key) ? ', a target you can pick' : ''),
    });
    const choose = () => {
      if (svg.dataset.dragged) return;
      onSelect(hex);
    };
    g.addEventListener('click', choose);
    g.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        choose();
      }
    });
    g.append(
      s('polygon', {
        points: hexPoints(cx, cy),
        class: 'cn-hex',
        fill: x.explored ? null : 'url(#cn-fog)',
      }),
    );
    const top = g;
    g = s('g', { class: 'cn-sector-labels' });
    if (!x.explored) {
      g.append(s('text', { x: cx, y: cy + 5, class: 'cn-q' }, '?'));
      g.append(s('text', { x: cx, y: cy + 36, class: 'cn-coord' }, `${x.q},${x.r}`));
      return [top, g];
    }
    if (x.kind === 'capital')
      g.append(s('polygon', { points: hexPoints(cx, cy, SIZE - 6), class: 'cn-capital-ring' }));
    const name = (x.name || '').replace(/ System$/, '');
    g.append(
      s(
        'text',
        { x: cx, y: cy - 30, class: 'cn-name' },
        name.length > 11 ? `${name.slice(0, 10)}…` : name,
      ),
    );
    // Planets along the middle.
    const planets = x.planets || [];
    planets.forEach((p, i) => {
      const px = cx + (i - (planets.length - 1) / 2) * 26;
      const py = cy - 6;
      const owned = p.owner !== null && p.owner !== undefined;
      g.append(
        s('circle', {
          cx: px,
          cy: py,
          r: 9,
          class: `cn-planet${owned ? ` cn-fill-s${p.owner}` : ''}`,
        }),
      );
      if (p.troops) g.append(s('text', { x: px, y: py + 4, class: 'cn-troops' }, p.troops));
      const mk = markerGlyph(p.marker);
      if (mk) g.append(s('text', { x: px + 9, y: py - 6, class: `cn-mk ${mk.cls}` }, mk.text));
    });
    const mk = markerGlyph(x.marker);
    if (mk) g.append(s('text', { x: cx + 30, y: cy - 18, class: `cn-mk ${mk.cls}` }, mk.text));
    // Fleets: one chip per seat with its ship count.
    const fleets = x.fleets || [];
    fleets.forEach((f, i) => {
      const fx = cx + (i - (fleets.length - 1) / 2) * 24;
      const fy = cy + 17;
      g.append(
        s('rect', {
          x: fx - 10,
          y: fy - 8,
          width: 20,
          height: 15,
          rx: 4,
          class: `cn-fleet cn-fill-s${f.seat}`,
        }),
      );
      // Ships, or fighters left on their own ("2f").
      g.append(
        s(
          'text',
          { x: fx, y: fy + 4, class: 'cn-fleet-n' },
          shipCount(f.units) || `${f.units.fighter || 0}f`,
        ),
      );
    });
    if (o.tokens && o.tokens.has(key))
      g.append(
        s('rect', {
          x: cx - 32,
          y: cy - 24,
          width: 9,
          height: 9,
          class: `cn-token cn-fill-s${o.you}`,
        }),
      );
    if (stale)
      g.append(s('text', { x: cx, y: cy + 38, class: 'cn-seen' }, `seen r${x.seen_round}`));
    else g.append(s('text', { x: cx, y: cy + 38, class: 'cn-coord' }, `${x.q},${x.r}`));
    return [top, g];
  }

  function update(galaxy, o) {
    const sectors = (galaxy && galaxy.sectors) || [];
    if (!home && sectors.length) {
      let minX = Infinity;
      let minY = Infinity;
      let maxX = -Infinity;
      let maxY = -Infinity;
      for (const x of sectors) {
        const [cx, cy] = hexCenter(x.q, x.r);
        minX = Math.min(minX, cx);
        maxX = Math.max(maxX, cx);
        minY = Math.min(minY, cy);
        maxY = Math.max(maxY, cy);
      }
      const pad = SIZE + 4;
      home = [minX - pad, minY - pad, maxX - minX + 2 * pad, maxY - minY + 2 * pad];
      vb = home.slice();
      apply();
      // A narrow screen starts zoomed in on the seat's home.
      const mine = sectors.find((x) => x.home === o.you);
      if (mine && window.innerWidth < 640) {
        const [hx, hy] = hexCenter(mine.q, mine.r);
        const w = home[2] * 0.6;
        const ht = home[3] * 0.6;
        const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));
        vb = [
          clamp(hx - w / 2, home[0], home[0] + home[2] - w),
          clamp(hy - ht / 2, home[1], home[1] + home[3] - ht),
          w,
          ht,
        ];
        apply();
      }
    }
    const focused =
      document.activeElement && svg.contains(document.activeElement)
        ? document.activeElement.getAttribute('data-hex')
        : null;
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    // The hexes, the highlighted ones last (their outline on top), then
    // the labels over all of them.
    const bases = s('g');
    const labels = s('g', { class: 'cn-labels', 'aria-hidden': 'true' });
    const late = [];
    for (const x of sectors) {
      const [base, label] = sectorNode(x, o);
      if (/cn-selected|cn-target|cn-home/.test(base.getAttribute('class'))) late.push(base);
      else bases.append(base);
      labels.append(label);
    }
    late.sort(
      (a, b) =>
        /cn-selected|cn-target/.test(a.getAttribute('class')) -
        /cn-selected|cn-target/.test(b.getAttribute('class')),
    );
    bases.append(...late);
    layer.append(bases, labels);
    if (focused) {
      const again = layer.querySelector(`[data-hex="${focused}"]`);
      if (again) again.focus();
    }
  }

  return { el, update };
}

function markerGlyph(m) {
  if (!m) return null;
  if (m === 'hidden') return { text: '?', cls: 'cn-mk-hidden' };
  return m.hostile ? { text: '!', cls: 'cn-mk-hostile' } : { text: '✓', cls: 'cn-mk-friendly' };
}
