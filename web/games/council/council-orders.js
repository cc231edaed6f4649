// council-orders.js - the Galactic Council order composer. The action
// phase is one sealed window whose order is given in keyed parts; every
// part the composer builds is stored on the server at once
// (PUT .../orders/{window}/parts/{key}), so a reload keeps it. Parts:
// "card" (use the strategy card), "fNN" (the fleet in sector NN: move,
// then hold, land or a conditional "inspect; if ... then ... otherwise
// ..."), "pNN" (production at sector NN), "sNN" (a long-range scan of
// sector NN), "xNN" (paid exploration of sector NN); they resolve in that
// order (keys sorted as text). "Send
// orders" sets the reserved part "ready" to true; "Edit" deletes it.
//
// createComposer(c) -> {state, panel(m, ctx), onMapSelect(hex, ctx)}.

import { api, ApiError } from '../../api.js';
import { h, toast, announce } from '../../ui.js';
import { partSentence, hexLabel, sectorAt, humanize, UNITS, SHIPS } from './council-text.js';
import { isLobbyPart } from './council-council.js';

const READY = 'ready';
const OPTIONS = { intelligence: ['exploration', 'sabotage'] };
const LANDINGS = {
  hold: { text: 'stay there', steps: () => [] },
  land_all: {
    text: 'land all troopers on every planet',
    steps: () => [{ type: 'land', planet: 'all', troops: 'all' }],
  },
  land_influence: {
    text: 'land all troopers on the planet with the highest influence',
    steps: () => [{ type: 'land', planet: 'highest_influence', troops: 'all' }],
  },
  land_resources: {
    text: 'land all troopers on the planet with the most resources',
    steps: () => [{ type: 'land', planet: 'highest_resources', troops: 'all' }],
  },
  cond: { text: 'inspect the marker, then decide', steps: null },
};
const CONDS = {
  hostile: { text: 'the marker is hostile', cond: { type: 'marker_is', is: 'hostile' } },
  friendly: { text: 'the marker is friendly', cond: { type: 'marker_is', is: 'friendly' } },
  enemy_ships: { text: 'enemy ships are present', cond: { type: 'enemy_ships' } },
  no_planets: {
    text: 'the sector holds no planets',
    cond: { type: 'holds', what: 'planets', not: true },
  },
  enemy_troops: {
    text: 'enemy troopers hold a planet',
    cond: { type: 'holds', what: 'enemy_troops' },
  },
};
const BRANCHES = {
  retreat: {
    text: 'retreat to where the fleet came from',
    steps: (d) => [{ type: 'retreat', to: d.from }],
  },
  land_all: {
    text: 'land all troopers on every planet',
    steps: () => [{ type: 'land', planet: 'all', troops: 'all' }],
  },
  land_influence: {
    text: 'land all troopers on the planet with the highest influence',
    steps: () => [{ type: 'land', planet: 'highest_influence', troops: 'all' }],
  },
  hold: { text: 'hold position', steps: () => [{ type: 'hold' }] },
};

const sameHex = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
const hexDistance = (a, b) =>
  (Math.abs(a[0] - b[0]) + Math.abs(a[0] + a[1] - b[0] - b[1]) + Math.abs(a[1] - b[1])) / 2;
const pad2 = (n) => String(n).padStart(2, '0');

export function sectorIndex(galaxy, hex) {
  return (galaxy.sectors || []).findIndex((s) => s.q === hex[0] && s.r === hex[1]);
}

function myFleet(x, you) {
  const f = x && (x.fleets || []).find((f) => f.seat === you);
  return f ? f.units : null;
}

// The steps of a move draft.
export function moveSteps(d) {
  const units = Object.fromEntries(Object.entries(d.units).filter(([, n]) => n > 0));
  const steps = [{ type: 'move', from: d.from, to: d.to, units }];
  if (d.arrive === 'cond') {
    steps.push({ type: 'inspect' });
    const step = { type: 'if', cond: { ...CONDS[d.cond].cond }, then: BRANCHES[d.then].steps(d) };
    if (d.otherwise !== 'nothing') step.else = BRANCHES[d.otherwise].steps(d);
    steps.push(step);
  } else steps.push(...LANDINGS[d.arrive].steps(d));
  return steps;
}

// A move part back into a draft, or null when the composer did not make it.
function draftOfMove(part) {
  const list = Array.isArray(part) ? part : [part];
  const mv = list[0];
  if (!mv || mv.type !== 'move') return null;
  const d = {
    kind: 'move',
    from: mv.from,
    to: mv.to,
    units: { ...mv.units },
    arrive: 'hold',
    cond: 'hostile',
    then: 'retreat',
    otherwise: 'land_all',
  };
  const rest = JSON.stringify(list.slice(1));
  for (const k of ['hold', 'land_all', 'land_influence', 'land_resources'])
    if (JSON.stringify(LANDINGS[k].steps(d)) === rest) return { ...d, arrive: k };
  for (const c of Object.keys(CONDS))
    for (const t of Object.keys(BRANCHES))
      for (const o of ['nothing', ...Object.keys(BRANCHES)]) {
        const x = { ...d, arrive: 'cond', cond: c, then: t, otherwise: o };
        if (JSON.stringify(moveSteps(x)) === JSON.stringify(list)) return x;
      }
  return null;
}

export function createComposer(c) {
  const state = { draft: null, busy: false, selected: null };

  async function call(fn, done) {
    if (state.busy) return false;
    state.busy = true;
    c.draw();
    try {
      await fn();
      if (done) announce(done);
      return true;
    } catch (e) {
      toast(e.detail || e.message, 'error');
      return false;
    } finally {
      state.busy = false;
      c.draw();
    }
  }

  const putPart = (w, key, value, done) =>
    call(() => api.putOrderPart(c.id, w.id, key, value), done);
  const deletePart = (w, key, done) => call(() => api.deleteOrderPart(c.id, w.id, key), done);

  // "Send orders": the ready part after the others. A server that does not
  // know the ready part (422 on it) locks a window once every seat holds
  // an order: then an order with no parts is sent whole as {} (hold).
  async function send(w, held) {
    await call(async () => {
      try {
        await api.putOrderPart(c.id, w.id, READY, true);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        if (e.status === 422 && e.field === READY) {
          if (!Object.keys(held).length) await c.putOrder(w.id, {});
          return;
        }
        if (e.status === 409 || e.status === 404) return; // the window has moved on
        throw e;
      }
    }, 'Orders sent');
  }

  function onMapSelect(hex, ctx) {
    const d = state.draft;
    if (d && d.kind === 'move' && !sameHex(hex, d.from) && ctx.sending) {
      if (hexDistance(hex, d.from) > reachOf(d, ctx)) {
        announce(`${hexLabel(ctx.galaxy, hex)} is out of reach for these ships this round`);
        return true;
      }
      d.to = hex;
      announce(`Destination ${hexLabel(ctx.galaxy, hex)}`);
      return true; // the selection stays on the fleet
    }
    return false;
  }

  // Troopers a fleet may lift here: those in space, and those on your
  // planets beyond one each, up to the carriers' and dreadnoughts' room.
  function liftable(x, you) {
    const f = myFleet(x, you) || {};
    const ground = (x.planets || []).reduce(
      (n, p) => n + (p.owner === you && p.troops > 1 ? p.troops - 1 : 0),
      0,
    );
    const room = (f.carrier || 0) * 4 + (f.dreadnought || 0);
    return Math.min(room, (f.trooper || 0) + ground);
  }

  function startMove(x, you) {
    const units = { ...myFleet(x, you) };
    const lift = liftable(x, you);
    if (lift) units.trooper = lift;
    state.draft = {
      kind: 'move',
      from: [x.q, x.r],
      to: null,
      units,
      arrive: 'cond',
      cond: 'hostile',
      then: 'retreat',
      otherwise: 'land_all',
    };
  }

  function numberField(label, value, onInput, key, max = 30) {
    return h(
      'label.cn-num',
      h('span', label),
      h('input', {
        type: 'number',
        min: 0,
        max,
        value: String(value),
        inputmode: 'numeric',
        'data-key': key,
        oninput: (e) => onInput(Math.max(0, Math.min(max, parseInt(e.target.value, 10) || 0))),
      }),
    );
  }

  function select(label, value, options, onChange, key) {
    return h(
      'select',
      { 'aria-label': label, 'data-key': key, onchange: (e) => onChange(e.target.value) },
      Object.entries(options).map(([k, o]) =>
        h('option', { value: k, selected: k === value }, o.text || o),
      ),
    );
  }

  // How far the ships chosen may go this round: the slowest one's move plus
  // the most the seat's drives and cards may add (you.ship_moves and
  // you.move_bonus, the bound the server checks a move part against).
  function reachOf(d, ctx) {
    const you = ctx.yours || {};
    const moves = you.ship_moves || {};
    const speeds = Object.entries(d.units)
      .filter(([k, n]) => n > 0 && SHIPS.includes(k))
      .map(([k]) => moves[k] ?? 1);
    return (speeds.length ? Math.min(...speeds) : 0) + (you.move_bonus || 0);
  }

  function moveEditor(w, ctx) {
    const d = state.draft;
    const g = ctx.galaxy;
    const here = sectorAt(g, d.from);
    const have = { ...(myFleet(here, ctx.you) || {}) };
    const lift = liftable(here, ctx.you);
    if (lift > (have.trooper || 0)) have.trooper = lift;
    const reach = (g.sectors || []).filter(
      (s) => !sameHex([s.q, s.r], d.from) && hexDistance([s.q, s.r], d.from) <= reachOf(d, ctx),
    );
    const dests = { '': { text: 'choose on the map or here…' } };
    for (const s of reach)
      dests[`${s.q},${s.r}`] = {
        text: hexLabel(g, [s.q, s.r]) + (s.explored ? '' : ' (unexplored)'),
      };
    const rerender = () => c.draw();
    const ready =
      d.to &&
      hexDistance(d.to, d.from) <= reachOf(d, ctx) &&
      Object.entries(d.units).some(([k, n]) => n > 0 && SHIPS.includes(k));
    const sentence = d.to ? partSentence(moveSteps(d), g) : null;
    return h(
      'div.cn-draft',
      { role: 'group', 'aria-labelledby': 'cn-draft-h' },
      h('h3#cn-draft-h', `Fleet order from ${hexLabel(g, d.from)}`),
      h(
        'div.cn-units',
        UNITS.filter((k) => have[k]).map((k) =>
          numberField(
            `${humanize(k)}s (of ${have[k]})`,
            d.units[k] || 0,
            (n) => {
              d.units[k] = n;
              rerender();
            },
            `mv-${k}`,
            have[k],
          ),
        ),
      ),
      h(
        'label.cn-field',
        h('span', 'Move to'),
        select(
          'Destination',
          d.to ? `${d.to[0]},${d.to[1]}` : '',
          dests,
          (v) => {
            d.to = v ? v.split(',').map(Number) : null;
            rerender();
          },
          'mv-to',
        ),
      ),
      h(
        'label.cn-field',
        h('span', 'On arrival'),
        select(
          'On arrival',
          d.arrive,
          LANDINGS,
          (v) => {
            d.arrive = v;
            rerender();
          },
          'mv-arrive',
        ),
      ),
      d.arrive === 'cond'
        ? h(
            'p.cn-cond',
            'Inspect the marker; if ',
            select(
              'Condition',
              d.cond,
              CONDS,
              (v) => {
                d.cond = v;
                rerender();
              },
              'mv-cond',
            ),
            ', then ',
            select(
              'Then',
              d.then,
              BRANCHES,
              (v) => {
                d.then = v;
                rerender();
              },
              'mv-then',
            ),
            ', otherwise ',
            select(
              'Otherwise',
              d.otherwise,
              { nothing: { text: 'do nothing more' }, ...BRANCHES },
              (v) => {
                d.otherwise = v;
                rerender();
              },
              'mv-else',
            ),
            '.',
          )
        : null,
      h(
        'p.cn-sentence',
        { 'aria-live': 'polite' },
        sentence || 'Choose where the fleet goes (click a sector on the map).',
      ),
      h(
        'div.row',
        h(
          'button.button.primary',
          {
            type: 'button',
            'data-key': 'draft-add',
            disabled: !ready || state.busy,
            onclick: async () => {
              const key = `f${pad2(sectorIndex(g, d.from))}`;
              if (await putPart(w, key, moveSteps(d), 'Fleet order added')) state.draft = null;
              c.draw();
            },
          },
          'Add to orders',
        ),
        h(
          'button.button',
          {
            type: 'button',
            'data-key': 'draft-cancel',
            onclick: () => {
              state.draft = null;
              c.draw();
            },
          },
          'Cancel',
        ),
      ),
    );
  }

  function produceEditor(w, ctx) {
    const d = state.draft;
    const g = ctx.galaxy;
    const total = Object.values(d.units).reduce((a, b) => a + b, 0);
    const steps = [
      {
        type: 'produce',
        sector: d.sector,
        units: Object.fromEntries(Object.entries(d.units).filter(([, n]) => n > 0)),
      },
    ];
    return h(
      'div.cn-draft',
      { role: 'group', 'aria-labelledby': 'cn-draft-h' },
      h('h3#cn-draft-h', `Production at ${hexLabel(g, d.sector)}`),
      h(
        'p.hint',
        'Costs: carrier 3, cruiser 2, destroyer 1, dreadnought 4, two fighters or two troopers 1. At most 4 units.',
      ),
      h(
        'div.cn-units',
        UNITS.map((k) =>
          numberField(
            `${humanize(k)}s`,
            d.units[k] || 0,
            (n) => {
              d.units[k] = n;
              c.draw();
            },
            `pr-${k}`,
            8,
          ),
        ),
      ),
      h('p.cn-sentence', total ? partSentence(steps, g) : 'Choose what to build.'),
      h(
        'div.row',
        h(
          'button.button.primary',
          {
            type: 'button',
            'data-key': 'draft-add',
            disabled: !total || state.busy,
            onclick: async () => {
              if (await putPart(w, `p${pad2(sectorIndex(g, d.sector))}`, steps, 'Production added'))
                state.draft = null;
              c.draw();
            },
          },
          'Add to orders',
        ),
        h(
          'button.button',
          {
            type: 'button',
            'data-key': 'draft-cancel',
            onclick: () => {
              state.draft = null;
              c.draw();
            },
          },
          'Cancel',
        ),
      ),
    );
  }

  // What you can order at the selected sector.
  function sectorActions(w, ctx, x) {
    if (!x) return h('p.muted', 'Select a sector on the map to give it orders.');
    const g = ctx.galaxy;
    const idx = sectorIndex(g, [x.q, x.r]);
    const acts = [];
    const fleet = myFleet(x, ctx.you);
    if (fleet && SHIPS.some((k) => fleet[k]))
      acts.push(
        h(
          'button.button',
          {
            type: 'button',
            'data-key': 'act-move',
            onclick: () => {
              startMove(x, ctx.you);
              c.draw();
            },
          },
          'Move the fleet from here',
        ),
      );
    if ((x.planets || []).some((p) => p.owner === ctx.you))
      acts.push(
        h(
          'button.button',
          {
            type: 'button',
            'data-key': 'act-produce',
            onclick: () => {
              state.draft = { kind: 'produce', sector: [x.q, x.r], units: {} };
              c.draw();
            },
          },
          'Produce here',
        ),
      );
    const frontier =
      !x.explored &&
      (g.sectors || []).some((s) => s.explored && hexDistance([s.q, s.r], [x.q, x.r]) === 1);
    if (frontier)
      acts.push(
        h(
          'button.button',
          {
            type: 'button',
            'data-key': 'act-explore',
            disabled: state.busy,
            onclick: () =>
              putPart(
                w,
                `x${pad2(idx)}`,
                [{ type: 'explore', sector: [x.q, x.r] }],
                'Exploration added',
              ),
          },
          `Pay to explore (${g.explore_cost} trade good${g.explore_cost === 1 ? '' : 's'} or more)`,
        ),
      );
    const me = ctx.me;
    const near = (n) =>
      (g.sectors || []).some((s) => s.explored && hexDistance([s.q, s.r], [x.q, x.r]) <= n);
    const hiddenHere =
      x.explored && (x.marker === 'hidden' || (x.planets || []).some((p) => p.marker === 'hidden'));
    if (me && me.techs.includes('deep_scanners') && ((!x.explored && near(2)) || hiddenHere)) {
      const step = { type: 'scan', sector: [x.q, x.r] };
      if (x.explored && x.marker !== 'hidden')
        step.planet = x.planets.find((p) => p.marker === 'hidden').key;
      acts.push(
        h(
          'button.button',
          {
            type: 'button',
            'data-key': 'act-scan',
            disabled: state.busy,
            onclick: () => putPart(w, `s${pad2(idx)}`, [step], 'Scan added'),
          },
          x.explored
            ? 'Scan the hidden marker (free, once a round)'
            : 'Scan this sector (free, once a round)',
        ),
      );
    }
    if (!acts.length)
      return h('p.muted', `Nothing of yours to order at ${hexLabel(g, [x.q, x.r])}.`);
    return h(
      'div.cn-acts',
      { role: 'group', 'aria-label': `Orders at ${hexLabel(g, [x.q, x.r])}` },
      acts,
    );
  }

  function cardAction(w, ctx, held) {
    const me = ctx.me;
    if (!me || !me.card || me.card_used || held.card) return null;
    const opts = OPTIONS[me.card] || [null];
    const target = state.selected;
    return h(
      'div.cn-acts',
      { role: 'group', 'aria-label': 'Strategy card' },
      opts.map((opt) =>
        h(
          'button.button',
          {
            type: 'button',
            'data-key': `act-card-${opt || 'primary'}`,
            disabled: state.busy,
            onclick: () => {
              const step = { type: 'strategy', card: me.card };
              if (opt) step.option = opt;
              if (target) step.targets = [target];
              putPart(w, 'card', [step], 'Strategy card order added');
            },
          },
          `Use ${ctx.cardName(me.card)}${opt ? ` (${opt})` : ''}${target ? ` on ${hexLabel(ctx.galaxy, target)}` : ''}`,
        ),
      ),
    );
  }

  // Status 1 (seed 001: the player chooses): which revealed public
  // objective to score at this round's status phase; without a choice the
  // server scores the first one met. A score part ranks just the one.
  function scoreChoice(w, m, held) {
    const open = (m.view.objectives || []).filter((o) => !(o.scored_by || []).includes(m.you));
    if (!open.length) return null;
    const cur = held.score && held.score[0] && (held.score[0].public || [])[0];
    return h(
      'label.cn-field.cn-score',
      h('span', 'At the status phase score'),
      h(
        'select',
        {
          'aria-label': 'Objective to score at the status phase',
          'data-key': 'score-public',
          disabled: state.busy,
          onchange: (e) =>
            e.target.value
              ? putPart(
                  w,
                  'score',
                  [{ type: 'score', public: [e.target.value] }],
                  'Objective choice saved',
                )
              : deletePart(w, 'score', 'The server scores the first objective met'),
        },
        h('option', { value: '', selected: !cur }, 'the first one I meet'),
        open.map((o) =>
          h('option', { value: o.key, selected: cur === o.key }, `${o.name} (${o.text})`),
        ),
      ),
    );
  }

  // The composer panel for the action window w (null when none).
  function panel(m, ctx) {
    const w = m.myWindow;
    if (!w || w.mode !== 'sealed' || !/\.action$/.test(w.id)) return null; // council windows: council-council.js
    const mine = (m.view.my_orders || {})[w.id] || {};
    const sent = mine[READY] === true;
    // Edition 2: the lobby's parts share this window; the council panel
    // shows them (council-council.js), the composer the fleet orders.
    const held = Object.fromEntries(
      Object.entries(mine).filter(
        ([k, v]) => k !== READY && !(m.view.lobby_in_action && isLobbyPart(k, v)),
      ),
    );
    const keys = Object.keys(held).sort();
    if (state.draft && state.draft.window !== w.id) {
      if (state.draft.window) state.draft = null;
      else state.draft.window = w.id;
    }
    const g = ctx.galaxy;
    const x = state.selected ? sectorAt(g, state.selected) : null;
    ctx.sending = !sent;
    return h(
      'section.panel.cn-orders',
      { 'aria-labelledby': 'cn-orders-h' },
      h('h2#cn-orders-h', `Your orders for round ${m.view.round}`),
      h(
        'p.cn-sent',
        { role: 'status' },
        sent
          ? 'Sent. The orders resolve once every player has sent theirs (or time runs out).'
          : keys.length
            ? 'Saved on the server, not sent yet.'
            : 'No orders yet: fleets without orders hold.',
      ),
      keys.length
        ? h(
            'ol.cn-parts',
            { 'aria-label': 'Order parts' },
            keys.map((k) => {
              const editable =
                !sent && (draftOfMove(held[k]) || (held[k][0] && held[k][0].type === 'produce'));
              return h(
                'li.cn-part',
                { dataset: { part: k } },
                h('span.cn-part-text', partSentence(held[k], g)),
                sent
                  ? null
                  : h(
                      'span.cn-part-act',
                      editable
                        ? h(
                            'button.link',
                            {
                              type: 'button',
                              'data-key': `edit-${k}`,
                              'aria-label': `Edit order ${k}`,
                              onclick: () => {
                                const d = draftOfMove(held[k]);
                                if (d) state.draft = { ...d, window: w.id };
                                else {
                                  const p = held[k][0];
                                  state.draft = {
                                    kind: 'produce',
                                    sector: p.sector,
                                    units: { ...p.units },
                                    window: w.id,
                                  };
                                }
                                c.draw();
                              },
                            },
                            'Edit',
                          )
                        : null,
                      h(
                        'button.link.danger',
                        {
                          type: 'button',
                          'data-key': `del-${k}`,
                          'aria-label': `Delete order ${k}`,
                          disabled: state.busy,
                          onclick: () => deletePart(w, k, 'Order deleted'),
                        },
                        'Delete',
                      ),
                    ),
              );
            }),
          )
        : null,
      sent
        ? null
        : state.draft && state.draft.kind === 'move'
          ? moveEditor(w, ctx)
          : state.draft
            ? produceEditor(w, ctx)
            : sectorActions(w, ctx, x),
      sent || state.draft ? null : cardAction(w, ctx, held),
      sent || state.draft ? null : scoreChoice(w, m, held),
      h(
        'div.row.cn-send',
        sent
          ? h(
              'button.button',
              {
                type: 'button',
                'data-key': 'edit-orders',
                disabled: state.busy,
                onclick: () => deletePart(w, READY, 'You can change your orders'),
              },
              'Edit orders',
            )
          : h(
              'button.button.primary',
              {
                type: 'button',
                'data-key': 'send-orders',
                disabled: state.busy || !!state.draft,
                onclick: () => send(w, held),
              },
              'Send orders',
            ),
      ),
    );
  }

  return { state, panel, onMapSelect };
}
