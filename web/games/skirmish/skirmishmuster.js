// skirmishmuster.js - the two sealed steps before a Skirmish battle: the
// squad builder (a prebuilt squad, or creatures picked from the catalogue
// within the budget, the creature limit and the copies limit, all from the
// muster window's legal answer) and the deployment (every creature of your
// squad on its own square of your home rows). Both are sealed orders, PUT
// /orders/{window} through the controller; nothing of the other player's
// choice is ever in this page's data before the reveal.

import { h, toast, announce } from '../../ui.js';
import { seatName } from '../../gamekit.js';
import { fieldGrid, homeSquares, fullCard, strikeText } from './skirmishfield.js';

export function newMusterState() {
  return { counts: new Map(), place: null, pick: 0, catalog: null, busy: false, open: null };
}

function squadCost(cat, counts) {
  let cost = 0;
  let n = 0;
  for (const [k, x] of counts) {
    const d = cat.cards.find((c) => c.key === k);
    cost += (d ? d.cost : 0) * x;
    n += x;
  }
  return { cost, n };
}

async function send(c, st, w, order) {
  if (st.busy) return;
  st.busy = true;
  c.draw();
  try {
    await c.putOrder(w.id, order);
  } catch (e) {
    toast(e.detail || e.message, 'error');
  } finally {
    st.busy = false;
    c.draw();
  }
}

// Who has submitted in the sealed window.
function ready(m) {
  const w = m.windows[0];
  if (!w) return null;
  return h(
    'p.players.sk-ready',
    [0, 1].map((s) =>
      h(
        'span.seat-badge',
        { class: `seat-c${s}` },
        seatName(m.seats, s),
        s === m.you ? h('span.tag.tag-you', 'you') : null,
        w.submitted.includes(s)
          ? h('span.tag.tag-done', 'ready')
          : h('span.tag.tag-wait', 'choosing'),
      ),
    ),
  );
}

function waiting(m, what) {
  return h('div.sk-sealed', h('p', what), ready(m));
}

function savedText(saved, cat) {
  if (!saved || !saved.order) return null;
  if (saved.order.squad) {
    const q = cat && cat.squads.find((x) => x.key === saved.order.squad);
    return q ? q.name : saved.order.squad;
  }
  return `your own squad of ${saved.order.cards.length}`;
}

// The muster step.
export function musterPanel(c, m, st) {
  const w = m.myWindow;
  if (!w)
    return waiting(
      m,
      'Both players are choosing their squads in secret. Nothing of either squad is shown until both have chosen.',
    );
  const legal = c.legalFor(w.id);
  if (legal && legal.catalog) st.catalog = legal.catalog;
  const cat = st.catalog;
  if (!cat) return h('p.muted', 'Loading the cards…');
  const lim = cat.muster;
  const done = w.submitted.includes(m.you);
  const saved = c.savedOrder(w.id);
  const { cost, n } = squadCost(cat, st.counts);
  const over = cost > lim.budget || n > lim.max_creatures;
  const problem =
    n === 0
      ? 'Pick creatures, or take a prebuilt squad.'
      : cost > lim.budget
        ? `Over the budget by ${cost - lim.budget}.`
        : n > lim.max_creatures
          ? `At most ${lim.max_creatures} creatures.`
          : '';
  const change = (key, delta) => {
    const x = (st.counts.get(key) || 0) + delta;
    if (x <= 0) st.counts.delete(key);
    else st.counts.set(key, x);
    const d = cat.cards.find((cc) => cc.key === key);
    announce(`${d.name}: ${x > 0 ? x : 0} in your squad`);
    c.draw();
  };
  const cards = [];
  for (const [k, x] of st.counts) for (let i = 0; i < x; i++) cards.push(k);
  const factionName = (f) => (cat.factions.find((x) => x.key === f) || { name: f }).name;
  return h(
    'div.sk-muster',
    ready(m),
    done
      ? h(
          'p.sk-done',
          { role: 'status' },
          `Submitted: ${savedText(saved, cat) || 'your squad'}. Waiting for the other player; you can still change it.`,
        )
      : h(
          'p',
          `Choose your squad in secret: a prebuilt squad, or your own (total cost at most ${lim.budget}, at most ${lim.max_creatures} creatures, at most ${lim.max_copies} of each).`,
        ),
    h('h2', 'Prebuilt squads'),
    h(
      'ul.sk-squads',
      cat.squads.map((q) =>
        h(
          'li',
          h(
            'div',
            h('strong', q.name),
            h('span.muted', ` · cost ${q.cost} · ${q.cards.length} creatures`),
            h(
              'p.sk-squad-list',
              q.cards
                .map((k) => (cat.cards.find((d) => d.key === k) || { name: k }).name)
                .join(', '),
            ),
          ),
          h(
            'button',
            {
              type: 'button',
              'data-key': `squad-${q.key}`,
              'data-squad': q.key,
              disabled: st.busy,
              onclick: () => send(c, st, w, { squad: q.key }),
            },
            `Take ${q.name}`,
          ),
        ),
      ),
    ),
    h('h2', 'Your own squad'),
    h(
      'div.sk-tally',
      { role: 'status', class: over ? 'over' : null },
      h('span', { 'data-testid': 'sk-cost' }, `Cost ${cost} of ${lim.budget}`),
      h('span', `${n} of ${lim.max_creatures} creatures`),
      h(
        'button.primary',
        {
          type: 'button',
          'data-key': 'submit-squad',
          disabled: st.busy || !!problem,
          onclick: () => send(c, st, w, { cards }),
        },
        'Submit this squad',
      ),
      n
        ? h(
            'button',
            {
              type: 'button',
              'data-key': 'clear-squad',
              onclick: () => (st.counts.clear(), c.draw()),
            },
            'Clear',
          )
        : null,
      problem && n ? h('span.sk-problem', problem) : null,
    ),
    cat.factions.map((f) =>
      h(
        'details.sk-faction',
        {
          open: st.open === f.key ? '' : null,
          ontoggle: (e) =>
            e.target.open ? (st.open = f.key) : st.open === f.key && (st.open = null),
        },
        h(
          'summary',
          h('strong', factionName(f.key)),
          h('span.muted', ` · ${cat.cards.filter((d) => d.faction === f.key).length} creatures`),
        ),
        h(
          'ul.sk-catalog',
          cat.cards
            .filter((d) => d.faction === f.key)
            .map((d) => {
              const x = st.counts.get(d.key) || 0;
              return h(
                'li.sk-pick',
                { class: x ? 'picked' : null },
                h('div.sk-pick-head', h('strong', d.name), h('span.sk-cost', `cost ${d.cost}`)),
                h(
                  'p.sk-pick-stats',
                  `♥${d.life} · ➜${d.move} · ⚔${strikeText(d)}${d.tokens ? ` · ◆${d.tokens}` : ''}`,
                ),
                d.text ? h('p.sk-pick-text', d.text) : null,
                h(
                  'div.sk-count',
                  h(
                    'button',
                    {
                      type: 'button',
                      'data-key': `minus-${d.key}`,
                      'aria-label': `Remove ${d.name}`,
                      disabled: !x,
                      onclick: () => change(d.key, -1),
                    },
                    '−',
                  ),
                  h('span', { 'aria-label': `${x} ${d.name} in your squad` }, String(x)),
                  h(
                    'button',
                    {
                      type: 'button',
                      'data-key': `plus-${d.key}`,
                      'aria-label': `Add ${d.name}`,
                      disabled: x >= lim.max_copies,
                      onclick: () => change(d.key, 1),
                    },
                    '+',
                  ),
                ),
              );
            }),
        ),
      ),
    ),
  );
}

// The deployment step: st.place[i] is the square of your i-th creature.
export function deployPanel(c, m, st) {
  const v = m.view;
  const w = m.myWindow;
  if (!w || m.you === null || m.you === undefined)
    return waiting(
      m,
      'Both players are placing their squads in secret. The placements are shown when both have placed.',
    );
  const mine = (v.units || []).filter((u) => u.owner === m.you);
  const home = homeSquares(m.you);
  const saved = c.savedOrder(w.id);
  if (!st.place || st.place.length !== mine.length || st.placeWindow !== w.id) {
    st.placeWindow = w.id;
    st.place =
      saved && saved.order && saved.order.squares && saved.order.squares.length === mine.length
        ? [...saved.order.squares]
        : mine.map(() => null);
    st.pick = st.place.indexOf(null);
  }
  const done = w.submitted.includes(m.you);
  const where = new Map(st.place.map((sq, i) => [sq, i]));
  const nextFree = () => st.place.indexOf(null);
  const clickSquare = (sq) => {
    if (where.has(sq)) {
      const i = where.get(sq);
      st.place[i] = null;
      st.pick = i;
      announce(`${mine[i].name} picked up`);
    } else if (st.pick >= 0 && st.pick < mine.length) {
      st.place[st.pick] = sq;
      announce(`${mine[st.pick].name} on ${sq}`);
      st.pick = nextFree();
    }
    c.draw();
  };
  // The field with your own creatures where you put them.
  const shown = { ...v, units: mine.map((u, i) => ({ ...u, square: st.place[i] })) };
  const field = fieldGrid(
    shown,
    m.you,
    (sq, u) => {
      const ok = home.includes(sq);
      return {
        cls: ok ? 'deployable' : 'off',
        disabled: !ok || st.busy,
        onclick: () => clickSquare(sq),
        label: u
          ? `${u.name}, placed (press to pick it up)`
          : ok
            ? st.pick >= 0
              ? `empty, place ${mine[st.pick].name} here`
              : 'empty'
            : 'the other player’s rows',
      };
    },
    { caption: 'Your home rows' },
  );
  const all = st.place.every((x) => x);
  const d = st.pick >= 0 ? v.cards && v.cards[mine[st.pick].key] : null;
  return h(
    'div.sk-deploy',
    ready(m),
    done
      ? h(
          'p.sk-done',
          { role: 'status' },
          'Placement submitted. Waiting for the other player; you can still change it.',
        )
      : h(
          'p',
          'Place every creature of your squad on your home rows (the three rows at the bottom), in secret. Pick a creature, then a square; press a placed creature to pick it up again.',
        ),
    h(
      'div.sk-deploy-grid',
      field,
      h(
        'div',
        h(
          'ul.sk-roster',
          { 'aria-label': 'Your squad' },
          mine.map((u, i) =>
            h(
              'li',
              h(
                'button.sk-roster-btn',
                {
                  type: 'button',
                  'data-key': `roster-${i}`,
                  'aria-pressed': String(st.pick === i),
                  class: st.place[i] ? 'placed' : null,
                  onclick: () => ((st.pick = i), c.draw()),
                },
                h('span', u.name),
                h('span.muted', st.place[i] ? ` on ${st.place[i]}` : ' · not placed'),
              ),
            ),
          ),
        ),
        d ? fullCard(d, null, m.seats, m.you) : null,
      ),
    ),
    h(
      'div.sk-tally',
      h(
        'button',
        {
          type: 'button',
          'data-key': 'auto-place',
          onclick: () => {
            const free = home.filter((sq) => !st.place.includes(sq));
            st.place = st.place.map((sq) => sq || free.shift());
            st.pick = -1;
            c.draw();
          },
        },
        'Place the rest (front row first)',
      ),
      h(
        'button',
        {
          type: 'button',
          'data-key': 'clear-place',
          onclick: () => ((st.place = mine.map(() => null)), (st.pick = 0), c.draw()),
        },
        'Clear',
      ),
      h(
        'button.primary',
        {
          type: 'button',
          'data-key': 'submit-place',
          disabled: !all || st.busy,
          onclick: () => send(c, st, w, { squares: [...st.place] }),
        },
        'Submit placement',
      ),
    ),
  );
}
