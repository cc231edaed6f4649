// gamekit.js - pieces every game screen shares: seat names and colours,
// the deadline countdown, the game log panel (with the entries the engine
// itself writes: submitted, ready, withdrawn, reveal, your_order, timeout),
// and the result banner's frame.

import { h, duration } from './ui.js';

export function seatName(seats, i) {
  const s = seats && seats[i];
  if (!s) return `Seat ${i + 1}`;
  if (s.player) return s.player.name;
  if (s.bot) return `Bot ${i + 1} (${s.bot})`;
  return `Seat ${i + 1}`;
}

export function seatBadge(seats, i, you) {
  return h(
    'span.seat-badge',
    { class: `seat-c${i % 4}` },
    h('span.seat-swatch', { 'aria-hidden': 'true' }),
    seatName(seats, i),
    i === you ? h('span.tag.tag-you', 'you') : null,
  );
}

// <time> counting down to an RFC 3339 deadline; game.js ticks every
// [data-deadline] once a second.
export function countdown(deadline, label = 'Time left') {
  if (!deadline) return null;
  const el = h(
    'span.countdown',
    { dataset: { deadline }, role: 'timer', 'aria-label': label },
    h('span.countdown-label', `${label}: `),
    h('time', { datetime: deadline }, '…'),
  );
  tickCountdown(el);
  return el;
}

export function tickCountdown(el) {
  const end = Date.parse(el.dataset.deadline);
  const left = (end - Date.now()) / 1000;
  const t = el.querySelector('time');
  if (t) t.textContent = left <= 0 ? 'time is up' : duration(left);
  el.classList.toggle('urgent', left > 0 && left <= 15);
}

// Generic text for the engine's own log entries; null when unknown.
export function describeEngineEntry(e, seats, you) {
  const name = (s) => (s === you ? 'You' : seatName(seats, s));
  switch (e.type) {
    case 'submitted':
      return `${name(e.seat)} submitted an order.`;
    case 'ready':
      return `${name(e.seat)} sent their orders.`;
    case 'withdrawn':
      return `${name(e.seat)} withdrew an order.`;
    case 'timeout':
      return `Time ran out in ${e.window}${e.seats && e.seats.length ? ` for ${e.seats.map(name).join(', ')}` : ''}.`;
    case 'aborted':
      return 'The game was aborted.';
    case 'your_order':
      return null; // the ruleset's describer says more
    default:
      return null;
  }
}

// The log panel: entries [{seq, round, text, kind}] newest last. It keeps
// the newest entry in sight unless the reader scrolled up to read.
const logScroll = { stick: true, top: 0, ignoreUntil: 0 };

export function logPanel(lines, { title = 'Game log' } = {}) {
  const list = h(
    'ol.log-list',
    { 'aria-label': title, tabindex: '0' }, // a list (the section is the log)
    lines.map((l) =>
      h(
        'li',
        { class: l.kind ? `log-${l.kind}` : null, dataset: { seq: l.seq } },
        l.round ? h('span.log-round', l.round) : null,
        l.text,
        // technical detail (a receipt...) stays one click away
        l.detail ? h('details.log-detail', h('summary', 'verify'), h('span', l.detail)) : null,
      ),
    ),
  );
  list.addEventListener('scroll', () => {
    if (performance.now() < logScroll.ignoreUntil) return;
    logScroll.stick = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
    logScroll.top = list.scrollTop;
  });
  requestAnimationFrame(() => {
    logScroll.ignoreUntil = performance.now() + 150;
    list.scrollTop = logScroll.stick ? list.scrollHeight : logScroll.top;
  });
  return h(
    'section.panel.log',
    { role: 'log', 'aria-labelledby': 'log-h' },
    h('h2#log-h', title),
    lines.length ? list : h('p.muted', 'Nothing yet.'),
  );
}

// "alice, bob and carol"
export function listText(items) {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

// Who has submitted in a sealed window: [{seat, done}].
export function submittedOf(windows, seat) {
  for (const w of windows || [])
    if (w.seats.includes(seat)) return { window: w.id, done: w.submitted.includes(seat) };
  return null;
}

// What a player reads when an order cannot reach the server (the game
// controller keeps it and sends it again). isOutage(e): the request never
// got an answer from the game (no connection, or a gateway/unavailable
// status).
export const OUTAGE_TEXT = 'Cannot reach the server: your order is kept and will be sent again.';
export function isOutage(e) {
  return !!e && (e.status === 0 || e.status === 502 || e.status === 503 || e.status === 504);
}
