// ui.js - small DOM helpers shared by the screens: element building (text
// only, never HTML strings from data), announcements for screen readers,
// toasts, focus keeping across re-renders, and time formatting.

// h('button.primary', {onclick, 'aria-label': ...}, 'text', child, [more])
export function h(spec, attrs, ...children) {
  const m = /^([a-z0-9-]+)?((?:[.#][\w-]+)*)$/i.exec(spec);
  const tag = (m && m[1]) || 'div';
  const el = document.createElement(tag);
  if (m && m[2]) {
    for (const part of m[2].match(/[.#][\w-]+/g)) {
      if (part[0] === '.') el.classList.add(part.slice(1));
      else el.id = part.slice(1);
    }
  }
  if (attrs && (typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = [el.className, v].filter(Boolean).join(' ');
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
    else if (k === 'value') el.value = v;
    else if (k === 'checked' || k === 'disabled' || k === 'selected') el[k] = !!v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : String(c));
  }
}

// Inline SVG from trusted markup in this codebase only (icons).
export function svg(markup) {
  const t = document.createElement('template');
  t.innerHTML = markup.trim();
  return t.content.firstElementChild;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

// Replace el's children, keeping keyboard focus on the element with the
// same data-key (if the new content has one) and the scroll position.
export function render(el, ...children) {
  const active = document.activeElement;
  const key = active && el.contains(active) ? active.dataset.key : null;
  const scrolls = [...el.querySelectorAll('[data-scroll]')].map((s) => [
    s.dataset.scroll,
    s.scrollTop,
  ]);
  clear(el);
  append(el, children);
  for (const [k, top] of scrolls) {
    const s = el.querySelector(`[data-scroll="${CSS.escape(k)}"]`);
    if (s) s.scrollTop = top;
  }
  if (key) {
    const again = el.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && !again.disabled) again.focus({ preventScroll: true });
  }
}

// Polite announcement for screen readers (#announce is aria-live).
export function announce(text) {
  const a = document.getElementById('announce');
  if (!a) return;
  a.textContent = '';
  setTimeout(() => {
    a.textContent = text;
  }, 30);
}

export function toast(text, kind = 'info') {
  const box = document.getElementById('toasts');
  if (!box) return;
  const t = h(
    'div.toast',
    { class: `toast-${kind}`, role: kind === 'error' ? 'alert' : 'status' },
    text,
  );
  box.append(t);
  setTimeout(() => t.classList.add('leaving'), 5000);
  setTimeout(() => t.remove(), 5600);
}

export function plural(n, one, many = one + 's') {
  return `${n} ${n === 1 ? one : many}`;
}

// "1:05" / "2 h 03 min" / "3 d 4 h" for a number of seconds.
export function duration(s) {
  s = Math.max(0, Math.floor(s));
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  if (s < 86400)
    return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
  return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
}

export function clockText(clock) {
  if (!clock || clock.mode === 'none') return 'no clock';
  return `${clock.mode} clock, ${duration(clock.seconds)} per turn`;
}

// A labelled form field: label + control (+ hint), ids wired for a11y.
let nextId = 1;
export function field(labelText, control, hint) {
  const id = control.id || `f${nextId++}`;
  control.id = id;
  const hintEl = hint ? h('small.hint', { id: `${id}-hint` }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  return h('div.field', h('label', { for: id }, labelText), control, hintEl);
}
