// sprint.js - the Galactic Sprint table: the round, phase and deadline, the
// VP track, your move (action, cards to place, cards to pay with, the cost
// worked out live and what is not allowed explained before you submit),
// explore and hand-limit discards, your hand, every empire, who has
// submitted, the log and the result. A spectator gets the same table from
// the public view: no hand, no move.

import { h, render, toast, announce, plural } from '../../ui.js';
import {
  seatName,
  countdown,
  logPanel,
  describeEngineEntry,
  listText,
  OUTAGE_TEXT,
  isOutage,
} from '../../gamekit.js';
import { cardFace, cardMini, icon } from './cards.js';
import {
  planCost,
  orderOf,
  planOf,
  choiceKey,
  designIndex,
  convoyWhat,
  isMilitaryWorld,
  defaultMode,
  whatMatches,
  exploreNumbers,
  timeoutDefaultText,
  resultLine,
  windowWords,
} from './sprintrules.js';

const PHASE = {
  place: 'Placement',
  explore: 'Explore: discards',
  limit: 'Hand limit: discards',
  over: 'Game over',
};
const ACTIONS = [
  { id: 'develop', title: 'Develop', help: 'one development, 1 cheaper' },
  { id: 'settle', title: 'Settle', help: 'one world, then draw 1 card' },
  { id: 'both', title: 'Both', help: 'a development and a world, full price' },
  { id: 'explore', title: 'Explore', help: '' },
];
const ACTION_TITLE = Object.fromEntries(ACTIONS.map((a) => [a.id, a.title]));
const PAST = {
  develop: 'developed',
  settle: 'settled',
  both: 'developed and settled',
  explore: 'explored',
  none: 'did nothing',
};
const CONDITIONS = {
  magnate: '65 or more VP chips',
  warlord: '4 or more military worlds and 45+ VP chips',
  tycoon: 'empire income of 9 or more and 45+ VP chips',
  pathfinder: 'azure, jade, amber and violet worlds and 45+ VP chips',
};

const blank = () => ({
  action: null,
  dev: null,
  survey: false,
  world: null,
  worldMode: null,
  convoy: null,
  convoyMode: null,
  pay: [],
  discard: [],
  rival: null,
});

export function sprintRenderer(c) {
  const known = new Map(); // card id -> design, for every card this page has seen
  let sel = blank();
  let selWindow = null;
  let busy = false;
  let serverError = null; // {detail, field} of the last refused order
  let focusedWindow = null; // the window whose order panel got the focus
  let focusAfterSubmit = false;

  // ------------------------------------------------------------ model --

  function learn(v) {
    for (const [id, d] of designIndex(v)) known.set(id, d);
  }

  const cardName = (id) => (known.get(id) ? known.get(id).name : `card ${id}`);

  function plan() {
    return {
      action: sel.action,
      dev: sel.dev,
      survey: sel.survey,
      world: sel.world,
      worldMode: sel.worldMode,
      convoy: sel.convoy,
      convoyMode: sel.convoyMode,
    };
  }

  function syncWindow(m) {
    const w = m.myWindow;
    const id = w ? w.id : null;
    if (id !== selWindow) {
      selWindow = id;
      sel = blank();
      serverError = null;
      const saved = w ? c.savedOrder(w.id) : null;
      if (saved && saved.order && w.submitted.includes(m.you)) restore(saved.order);
    }
    // Forget cards that left the hand.
    const hand = new Set(((m.view && m.view.hand) || []).map((r) => r.id));
    const keep = (x) => x === null || hand.has(x);
    if (!keep(sel.dev)) sel.dev = null;
    if (!keep(sel.world))
      Object.assign(sel, { world: null, worldMode: null, convoy: null, convoyMode: null });
    if (!keep(sel.convoy)) Object.assign(sel, { convoy: null, convoyMode: null });
    sel.pay = sel.pay.filter((x) => hand.has(x));
    sel.discard = sel.discard.filter((x) => hand.has(x));
  }

  function restore(order) {
    sel = blank();
    if (order.discard) sel.discard = [...order.discard];
    else {
      Object.assign(sel, planOf(order));
      sel.pay = [...(order.pay || [])];
      sel.rival = order.rival ?? null;
    }
  }

  // What GET /legal allows: placement key -> cost, and per card the actions
  // that can place it.
  function legalInfo(m) {
    const legal = m.myWindow ? c.legalFor(m.myWindow.id) : null;
    if (!legal || !Array.isArray(legal.choices) || m.view.phase !== 'place') return null;
    const costs = new Map();
    const canPlace = new Map(); // id or 'S' -> Set(action)
    const modes = new Map(); // world id -> Set(mode) it can be placed with
    const add = (k, a) => {
      if (!canPlace.has(k)) canPlace.set(k, new Set());
      canPlace.get(k).add(a);
    };
    for (const ch of legal.choices) {
      if (!ch.action) continue;
      costs.set(choiceKey(m.view, ch), ch.cost);
      if (ch.survey) add('S', ch.action);
      if (ch.development !== undefined) add(ch.development, ch.action);
      if (ch.world !== undefined) {
        add(ch.world, ch.action);
        if (!modes.has(ch.world)) modes.set(ch.world, new Set());
        modes.get(ch.world).add(ch.world_mode);
      }
    }
    return { costs, canPlace, modes };
  }

  // Everything about the order being built: cost, problems, the order.
  function assess(m, info) {
    const v = m.view;
    const p = plan();
    const problems = [];
    if (!sel.action) return { problems: ['Choose an action.'], need: 0, ready: false, pc: null };
    const pc = planCost(v, m.you, p);
    let need = pc.total;
    if (!pc.ok) problems.push(pc.error);
    else if (info && sel.action !== 'explore') {
      const k = choiceKey(v, p);
      if (info.costs.has(k)) need = info.costs.get(k);
      else problems.push('The server does not list this placement as possible; try another.');
    }
    if (pc.ok && sel.action !== 'explore') {
      const have = sel.pay.length;
      if (have < need)
        problems.push(
          `Select ${plural(need - have, 'more card')} in your hand to pay with (cost ${need}).`,
        );
      if (have > need)
        problems.push(
          `Too many cards to pay with: the cost is ${need}, ${have} selected. Deselect ${have - need}.`,
        );
    }
    return { problems, need, ready: problems.length === 0, pc };
  }

  function currentOrder(m) {
    const me = m.view.players[m.you];
    // Only games of the first rules edition name a rival (their view has
    // one); later ones score each rival card against its best opponent.
    const rival =
      !m.view.solitaire && sel.rival !== null && me && me.rival != null && sel.rival !== me.rival
        ? sel.rival
        : null;
    return orderOf(plan(), sel.pay, rival);
  }

  // The order panel can hold the focus (kept across redraws by its key).
  const MOVE_FOCUS = { tabindex: '-1', 'data-key': 'move-panel', class: 'move-focus' };

  // The order panel takes the focus when a new window waits on you (a new
  // round, a discard step) and after you submit, so the keyboard and the
  // screen reader land where the next decision is.
  function focusMove(m) {
    const w = m.myWindow;
    if (!w || m.spectator || (w.id === focusedWindow && !focusAfterSubmit)) return;
    const head = document.getElementById('move-h');
    const panel = head && head.closest('section');
    if (!panel) return;
    focusedWindow = w.id;
    focusAfterSubmit = false;
    panel.focus({ preventScroll: false });
  }

  // ---------------------------------------------------------- actions --

  function redraw() {
    c.draw();
  }

  function setAction(a) {
    sel.action = a;
    if (a === 'settle' || a === 'explore') Object.assign(sel, { dev: null, survey: false });
    if (a === 'develop' || a === 'explore')
      Object.assign(sel, { world: null, worldMode: null, convoy: null, convoyMode: null });
    if (a === 'explore') sel.pay = [];
    serverError = null;
    redraw();
  }

  function placeWorld(m, id, info) {
    sel.world = id;
    sel.pay = sel.pay.filter((x) => x !== id);
    const d = known.get(id);
    const modes = info && info.modes.get(id);
    // A military world you can only pay for: preselect paying.
    sel.worldMode = modes && !modes.has(defaultMode(d)) && modes.size === 1 ? [...modes][0] : null;
    sel.convoy = null;
    sel.convoyMode = null;
  }

  function clickCard(m, id) {
    serverError = null;
    const v = m.view;
    const d = known.get(id);
    if (v.phase !== 'place') {
      const need = v.players[m.you].must_discard;
      if (sel.discard.includes(id)) sel.discard = sel.discard.filter((x) => x !== id);
      else if (sel.discard.length >= need) announce(`Already ${need} selected: deselect one first`);
      else sel.discard.push(id);
      announce(`${d.name}: ${sel.discard.includes(id) ? 'to discard' : 'kept'}`);
      return redraw();
    }
    const info = legalInfo(m);
    if (sel.dev === id) sel.dev = null;
    else if (sel.world === id)
      Object.assign(sel, { world: null, worldMode: null, convoy: null, convoyMode: null });
    else if (sel.convoy === id) Object.assign(sel, { convoy: null, convoyMode: null });
    else if (sel.pay.includes(id)) sel.pay = sel.pay.filter((x) => x !== id);
    else {
      if (!sel.action || sel.action === 'explore')
        sel.action = d.type === 'world' ? 'settle' : 'develop';
      const wantsDev = sel.action === 'develop' || sel.action === 'both';
      const wantsWorld = sel.action === 'settle' || sel.action === 'both';
      if (d.type === 'development' && wantsDev && sel.dev === null && !sel.survey) sel.dev = id;
      else if (d.type === 'world' && wantsWorld && sel.world === null) placeWorld(m, id, info);
      else if (sel.dev === null && sel.world === null && !sel.survey) {
        // Nothing is being placed yet, so there is nothing to pay for: say
        // what the chosen action places instead of marking the card paying.
        const wants =
          wantsWorld && !wantsDev
            ? 'a world'
            : wantsDev && !wantsWorld
              ? 'a development'
              : 'a development or a world';
        announce(
          `${d.name} is a ${d.type}: ${ACTION_TITLE[sel.action] || sel.action} places ${wants}. Pick one first, or choose another action.`,
        );
        toast(
          `${ACTION_TITLE[sel.action] || sel.action} places ${wants}: pick one first, then the cards to pay with.`,
        );
        return redraw();
      } else sel.pay.push(id);
    }
    announce(`${d.name}: ${roleOf(id).text || 'in hand'}`);
    redraw();
  }

  function roleOf(id) {
    if (sel.dev === id) return { role: 'placing', text: 'placing as development' };
    if (sel.world === id) return { role: 'placing', text: 'placing as world' };
    if (sel.convoy === id) return { role: 'placing', text: 'placing as second world' };
    if (sel.pay.includes(id)) return { role: 'paying', text: 'paying' };
    if (sel.discard.includes(id)) return { role: 'discarding', text: 'discarding' };
    return { role: null, text: '' };
  }

  // The line under the order: an outage while the order waits to be sent
  // again, or what the server refused (gone once the kept order is sent).
  function orderErrorText(err) {
    if (isOutage(err)) return OUTAGE_TEXT;
    return `The server refused the order: ${err.detail}`;
  }

  async function submit(m, order) {
    const w = m.myWindow;
    if (!w || busy) return;
    busy = true;
    serverError = null;
    redraw();
    try {
      await c.putOrder(w.id, order);
    } catch (e) {
      serverError = { detail: e.detail || e.message, field: e.field, status: e.status };
      if (e.status === 409) toast(e.detail, 'error');
    } finally {
      busy = false;
      focusAfterSubmit = true;
      redraw();
    }
  }

  async function withdraw(m) {
    const w = m.myWindow;
    if (!w || busy) return;
    busy = true;
    try {
      await c.withdraw(w.id);
    } catch (e) {
      toast(e.detail || e.message, 'error');
    } finally {
      busy = false;
      redraw();
    }
  }

  // --------------------------------------------------------- pieces --

  function topPanel(m) {
    const v = m.view;
    const w = m.windows[0];
    return h(
      'section.panel.sprint-top',
      { 'aria-labelledby': 'game-h' },
      h(
        'div.top-line',
        h('h1#game-h', 'Galactic Sprint'),
        v.solitaire
          ? h('span.tag', v.campaign_conditions_met ? 'campaign game' : 'solitaire')
          : null,
        m.spectator ? h('span.tag.tag-watch', 'watching') : null,
      ),
      h(
        'div.round-line',
        h(
          'span.round',
          { 'data-testid': 'round' },
          v.solitaire ? `Round ${v.round} of ${v.max_rounds}` : `Round ${v.round}`,
        ),
        h('span.phase', { 'data-phase': v.phase }, PHASE[v.phase] || v.phase),
        w ? countdown(w.deadline) : null,
        h('span.muted', `Deck ${v.deck} · discard pile ${v.discard}`),
        v.solitaire && v.phase !== 'over'
          ? h('span.muted', `Imaginary empire's military: ${v.imaginary_military}`)
          : null,
      ),
      vpTrack(m),
    );
  }

  function vpTrack(m) {
    const v = m.view;
    const chips = v.players.map((p) => p.chips);
    const top = Math.max(v.target_vp, ...chips);
    const scale = Math.ceil((top + 2) / 10) * 10;
    const ticks = [];
    for (let t = 0; t <= scale; t += 10)
      ticks.push(
        h(
          'span.tick',
          { style: { left: `${(t / scale) * 100}%` }, 'aria-hidden': 'true' },
          String(t),
        ),
      );
    const seen = new Map();
    const markers = v.players.map((p) => {
      const n = seen.get(p.chips) || 0;
      seen.set(p.chips, n + 1);
      return h(
        'span.vp-marker',
        {
          class: `seat-c${p.seat % 4}`,
          style: { left: `${(p.chips / scale) * 100}%`, '--stack': n },
          title: `${seatName(m.seats, p.seat)}: ${p.chips} VP chips`,
          'aria-hidden': 'true',
        },
        String(p.chips),
      );
    });
    const label = `VP chips: ${v.players.map((p) => `${seatName(m.seats, p.seat)} ${p.chips}`).join(', ')}; ${v.solitaire ? `${v.target_vp} after round ${v.max_rounds} wins` : `${v.target_vp} ends the game`}.`;
    return h(
      'div.vp-track',
      { role: 'img', 'aria-label': label },
      h(
        'div.vp-rail',
        h(
          'span.vp-target',
          { style: { left: `${(v.target_vp / scale) * 100}%` }, title: `Target: ${v.target_vp}` },
          h('span', `${v.target_vp}`),
        ),
        ticks,
        markers,
      ),
    );
  }

  function resultPanel(m) {
    const v = m.view;
    const r = m.result;
    if (m.status === 'running' || !r) {
      if (v.phase === 'over')
        return h(
          'section.panel.result',
          { 'aria-live': 'polite' },
          h('h2', 'Game over'),
          h('p.muted', 'Counting the result…'),
        );
      return null;
    }
    const you = m.you;
    const order = v.players
      .map((p) => p.seat)
      .sort((a, b) => r.scores[b] - r.scores[a] || r.tiebreak[b] - r.tiebreak[a]);
    let headline;
    if (r.solitaire)
      headline = r.won
        ? r.campaign
          ? 'Campaign game won!'
          : 'Victory!'
        : r.campaign
          ? 'Campaign game lost'
          : 'Defeat';
    else if (you !== null && you !== undefined)
      headline = r.winners.includes(you)
        ? r.winners.length > 1
          ? 'A shared win!'
          : 'You won!'
        : 'Game over';
    else headline = `${listText(r.winners.map((s) => seatName(m.seats, s)))} won`;
    const sub = r.solitaire
      ? resultLine(r)
      : `After ${plural(r.rounds, 'round')}. Winner${r.winners.length > 1 ? 's' : ''}: ${listText(r.winners.map((s) => seatName(m.seats, s)))}.`;
    const good = r.solitaire
      ? r.won
      : you !== null && you !== undefined
        ? r.winners.includes(you)
        : true;
    return h(
      'section.panel.result',
      { 'aria-labelledby': 'result-h', 'data-testid': 'result', class: good ? 'good' : 'plain' },
      h('h2#result-h', headline),
      h('p.result-sub', sub),
      h(
        'table.scores',
        h('caption.sr-only', 'Final scores'),
        h(
          'thead',
          h(
            'tr',
            h('th', { scope: 'col' }, '#'),
            h('th', { scope: 'col' }, 'Player'),
            h('th', { scope: 'col' }, 'VP chips'),
            h('th', { scope: 'col' }, 'Empire VP'),
            h('th', { scope: 'col' }, 'Tie-break'),
          ),
        ),
        h(
          'tbody',
          order.map((s, i) =>
            h(
              'tr',
              { class: r.winners.includes(s) ? 'winner' : null },
              h('td', String(i + 1)),
              h(
                'th',
                { scope: 'row' },
                h(
                  'span.seat-badge',
                  { class: `seat-c${s % 4}` },
                  h('span.seat-swatch', { 'aria-hidden': 'true' }),
                  seatName(m.seats, s),
                  s === you ? h('span.tag.tag-you', 'you') : null,
                ),
              ),
              h('td', String(r.scores[s])),
              h('td', String(r.vp[s])),
              h('td', { title: 'cards in hand plus income' }, String(r.tiebreak[s])),
            ),
          ),
        ),
      ),
      r.solitaire && r.conditions_met
        ? h(
            'div.conditions',
            h(
              'h3',
              r.campaign
                ? 'Campaign conditions'
                : 'Campaign conditions (they count in a campaign game)',
            ),
            h(
              'ul.cond-list',
              Object.keys(CONDITIONS).map((k) => {
                const met = r.conditions_met.includes(k);
                const fresh = (r.new_conditions || []).includes(k);
                return h(
                  'li',
                  { class: met ? 'met' : 'unmet' },
                  h('strong', k),
                  ` – ${CONDITIONS[k]}: `,
                  met ? (fresh ? 'met (new!)' : 'met') : 'not met',
                );
              }),
            ),
          )
        : null,
      h(
        'div.row',
        h('a.button', { href: c.ctx.href('/') }, 'Back to the lobbies'),
        r.solitaire
          ? h(
              'a.button.primary',
              { href: c.ctx.href('/campaign') },
              r.campaign ? 'Campaign progress' : 'Solitaire campaign',
            )
          : null,
      ),
    );
  }

  function actionRadios(m) {
    const me = m.view.players[m.you];
    const ex = exploreNumbers(me);
    return h(
      'fieldset.actions',
      h('legend', 'Action'),
      ACTIONS.map((a) =>
        h(
          'label.action',
          { class: sel.action === a.id ? 'on' : null },
          h('input', {
            type: 'radio',
            name: 'action',
            value: a.id,
            checked: sel.action === a.id,
            'data-key': `action-${a.id}`,
            onchange: () => setAction(a.id),
          }),
          h('span.action-title', a.title),
          h('small', a.id === 'explore' ? `draw ${ex.draw}, keep 2` : a.help),
        ),
      ),
    );
  }

  function slotSelect(key, label, options, value, onchange) {
    const s = h(
      'select',
      {
        id: key,
        'data-key': key,
        onchange: (e) => onchange(e.target.value === '' ? null : e.target.value),
      },
      h('option', { value: '' }, '— none —'),
      options.map((o) => h('option', { value: String(o.value), disabled: o.disabled }, o.label)),
    );
    s.value = value === null || value === undefined ? '' : String(value);
    return h('div.slot', h('label', { for: key }, label), s);
  }

  function modeRadios(key, d, mode, military, onchange) {
    const cur = mode || defaultMode(d);
    return h(
      'fieldset.modes',
      h('legend.sr-only', `How to place ${d.name}`),
      h(
        'label',
        h('input', {
          type: 'radio',
          name: key,
          value: 'conquer',
          checked: cur === 'conquer',
          'data-key': `${key}-conquer`,
          onchange: () => onchange('conquer'),
        }),
        ` Conquer (military ${military} vs defence ${d.defence})`,
      ),
      h(
        'label',
        h('input', {
          type: 'radio',
          name: key,
          value: 'pay',
          checked: cur === 'pay',
          'data-key': `${key}-pay`,
          onchange: () => onchange('pay'),
        }),
        d.faction === 'alien' ? ' Pay (never for alien worlds)' : ` Pay (defence − 1)`,
      ),
    );
  }

  function orderPanel(m, info) {
    const v = m.view;
    const w = m.myWindow;
    const me = v.players[m.you];
    const hand = v.hand || [];
    const a = assess(m, info);
    const saved = c.savedOrder(w.id);
    const submitted = w.submitted.includes(m.you);
    const order = sel.action ? currentOrder(m) : null;
    const changed =
      submitted && saved && order && JSON.stringify(saved.order) !== JSON.stringify(order);
    const devs = hand.filter((r) => known.get(r.id).type === 'development');
    const worlds = hand.filter((r) => known.get(r.id).type === 'world');
    const wantsDev = sel.action === 'develop' || sel.action === 'both';
    const wantsWorld = sel.action === 'settle' || sel.action === 'both';
    const survey = v.cards[v.survey_card];
    const slots = [];
    if (wantsDev) {
      const opts = devs.map((r) => ({
        value: r.id,
        label: `${cardName(r.id)} (cost ${known.get(r.id).cost})`,
      }));
      if (me.survey_available)
        opts.push({
          value: 'S',
          label: `${survey.name} (central, once per game, cost ${survey.cost})`,
        });
      slots.push(
        slotSelect('slot-dev', 'Development', opts, sel.survey ? 'S' : sel.dev, (val) => {
          if (val === 'S') Object.assign(sel, { survey: true, dev: null });
          else Object.assign(sel, { survey: false, dev: val === null ? null : Number(val) });
          sel.pay = sel.pay.filter((x) => x !== sel.dev);
          serverError = null;
          redraw();
        }),
      );
    }
    if (wantsWorld) {
      slots.push(
        slotSelect(
          'slot-world',
          'World',
          worlds.map((r) => ({
            value: r.id,
            label: `${cardName(r.id)} (${isMilitaryWorld(known.get(r.id)) ? 'defence' : 'cost'} ${known.get(r.id).cost ?? known.get(r.id).defence})`,
          })),
          sel.world,
          (val) => {
            if (val === null)
              Object.assign(sel, { world: null, worldMode: null, convoy: null, convoyMode: null });
            else placeWorld(m, Number(val), info);
            serverError = null;
            redraw();
          },
        ),
      );
      const wd = sel.world !== null ? known.get(sel.world) : null;
      if (wd && isMilitaryWorld(wd)) {
        slots.push(
          modeRadios(
            'mode-world',
            wd,
            sel.worldMode,
            militaryFor(m, wd, false),
            (mode) => ((sel.worldMode = mode), (serverError = null), redraw()),
          ),
        );
      }
      const cw = wd ? convoyWhat(wd) : null;
      if (cw) {
        const eligible = worlds.filter(
          (r) => r.id !== sel.world && whatMatches(cw, known.get(r.id)),
        );
        slots.push(
          slotSelect(
            'slot-convoy',
            `Second world (convoy of ${wd.name})`,
            eligible.map((r) => ({ value: r.id, label: cardName(r.id) })),
            sel.convoy,
            (val) => {
              sel.convoy = val === null ? null : Number(val);
              sel.convoyMode = null;
              sel.pay = sel.pay.filter((x) => x !== sel.convoy);
              serverError = null;
              redraw();
            },
          ),
        );
        const cd = sel.convoy !== null ? known.get(sel.convoy) : null;
        if (cd && isMilitaryWorld(cd))
          slots.push(
            modeRadios(
              'mode-convoy',
              cd,
              sel.convoyMode,
              militaryFor(m, cd, true),
              (mode) => ((sel.convoyMode = mode), redraw()),
            ),
          );
      }
    }
    if (!v.solitaire && sel.action && me.rival != null) {
      const others = v.players.filter((p) => p.seat !== m.you);
      const cur = sel.rival ?? me.rival;
      slots.push(
        h(
          'div.slot',
          h('label', { for: 'slot-rival' }, 'Rival (for rival VP cards)'),
          (() => {
            const s = h(
              'select#slot-rival',
              {
                'data-key': 'slot-rival',
                onchange: (e) => ((sel.rival = Number(e.target.value)), redraw()),
              },
              others.map((p) => h('option', { value: String(p.seat) }, seatName(m.seats, p.seat))),
            );
            s.value = String(cur);
            return s;
          })(),
        ),
      );
    }
    const bill =
      a.pc && a.pc.ok && sel.action !== 'explore'
        ? h(
            'table.bill',
            h('caption.sr-only', 'Cost'),
            h(
              'tbody',
              a.pc.lines.map((l) => h('tr', h('th', { scope: 'row' }, l.label), h('td', l.text))),
              h('tr.total', h('th', { scope: 'row' }, 'To pay'), h('td', plural(a.need, 'card'))),
            ),
          )
        : null;
    const needPay = a.pc && a.pc.ok && sel.action !== 'explore';
    const payStatus = needPay
      ? h(
          'p#pay-status.pay-status',
          {
            dataset: { need: a.need, have: sel.pay.length },
            class: sel.pay.length === a.need ? 'ok' : 'short',
          },
          a.need === 0
            ? 'Nothing to pay.'
            : sel.pay.length === a.need
              ? `Paying with ${plural(a.need, 'card')} ✓`
              : `Pay ${plural(a.need, 'card')}: ${sel.pay.length} selected. Select cards in your hand below.`,
        )
      : sel.action === 'explore'
        ? h(
            'p.pay-status.ok',
            `You will draw ${exploreNumbers(me).draw} cards and discard ${exploreNumbers(me).discard} of your choice.`,
          )
        : null;
    const problems = [
      ...(sel.action ? a.problems.filter((p) => !(needPay && /^Select \d|^Too many/.test(p))) : []),
    ];
    if (needPay) problems.push(...a.problems.filter((p) => /^Select \d|^Too many/.test(p)));
    return h(
      'section.panel.move',
      {
        'aria-labelledby': 'move-h',
        'data-window': w.id,
        'data-legal': info ? 'yes' : 'no',
        ...MOVE_FOCUS,
      },
      h(
        'div.panel-head',
        h('h2#move-h', `Your move – round ${v.round}`),
        submitted
          ? h(
              'span.tag.tag-done',
              { 'data-testid': 'submitted' },
              changed ? 'submitted (changed here)' : 'submitted',
            )
          : h('span.tag.tag-wait', 'not submitted'),
      ),
      h(
        'p.muted.help',
        'Choose an action, then click cards in your hand: the first click places a card, more clicks pick the cards you pay with. Orders stay secret until everyone has submitted.',
      ),
      actionRadios(m),
      slots.length ? h('div.slots', slots) : null,
      bill,
      payStatus,
      problems.length && sel.action
        ? h(
            'ul.problems',
            { 'aria-live': 'polite', id: 'order-problems' },
            problems.map((p) => h('li', p)),
          )
        : null,
      serverError
        ? h(
            'p.error',
            { role: 'alert', 'data-testid': 'server-error' },
            orderErrorText(serverError),
          )
        : null,
      h(
        'div.row.move-buttons',
        h(
          'button.primary',
          {
            type: 'button',
            'data-key': 'submit',
            'data-testid': 'submit-order',
            disabled: !a.ready || busy || (submitted && !changed),
            'aria-describedby': problems.length ? 'order-problems' : null,
            onclick: () => submit(m, currentOrder(m)),
          },
          submitted ? (changed ? 'Replace my order' : 'Order submitted') : 'Submit order',
        ),
        submitted
          ? h(
              'button',
              {
                type: 'button',
                'data-key': 'withdraw',
                disabled: busy,
                onclick: () => withdraw(m),
              },
              'Withdraw',
            )
          : null,
        h(
          'button.link',
          {
            type: 'button',
            'data-key': 'clear',
            onclick: () => ((sel = blank()), (serverError = null), redraw()),
          },
          'Clear',
        ),
      ),
      submitted ? h('p.muted', 'You can change your order until everyone has submitted.') : null,
    );
  }

  // Military against world d, counting a development placed with it (and
  // the first world, for the convoy).
  function militaryFor(m, d, convoy) {
    const v = m.view;
    const base = v.players[m.you].empire.map((r) => v.cards[r.card]);
    if (sel.action === 'both' && (sel.dev !== null || sel.survey))
      base.push(sel.survey ? v.cards[v.survey_card] : known.get(sel.dev));
    if (convoy && sel.world !== null) base.push(known.get(sel.world));
    let mil = 0;
    const vs = {};
    for (const x of base) {
      mil += x.military || 0;
      for (const ab of x.abilities || [])
        if (ab.type === 'military_vs') vs[ab.what] = (vs[ab.what] || 0) + ab.amount;
    }
    for (const [what, n] of Object.entries(vs)) if (whatMatches(what, d)) mil += n;
    return mil;
  }

  function discardPanel(m) {
    const v = m.view;
    const w = m.myWindow;
    const me = v.players[m.you];
    const need = me.must_discard;
    const submitted = w.submitted.includes(m.you);
    const saved = c.savedOrder(w.id);
    const order = { discard: [...sel.discard] };
    const changed = submitted && saved && JSON.stringify(saved.order) !== JSON.stringify(order);
    const why =
      v.phase === 'explore'
        ? `You explored and drew ${me.last ? me.last.explore_drew : ''} cards. Discard ${plural(need, 'card')} from your hand, new or old.`
        : `You hold ${me.hand} cards; the hand limit is 10. Discard ${plural(need, 'card')}.`;
    return h(
      'section.panel.move',
      { 'aria-labelledby': 'move-h', 'data-window': w.id, ...MOVE_FOCUS },
      h(
        'div.panel-head',
        h('h2#move-h', v.phase === 'explore' ? 'Explore: discard' : 'Hand limit: discard'),
        submitted
          ? h(
              'span.tag.tag-done',
              { 'data-testid': 'submitted' },
              changed ? 'submitted (changed here)' : 'submitted',
            )
          : h('span.tag.tag-wait', 'not submitted'),
      ),
      h('p', why),
      h(
        'p#discard-status.pay-status',
        {
          dataset: { mustDiscard: need, have: sel.discard.length },
          class: sel.discard.length === need ? 'ok' : 'short',
        },
        `Selected ${sel.discard.length} of ${need}. Click cards in your hand to choose them.`,
      ),
      serverError
        ? h(
            'p.error',
            { role: 'alert', 'data-testid': 'server-error' },
            orderErrorText(serverError),
          )
        : null,
      h(
        'div.row.move-buttons',
        h(
          'button.primary',
          {
            type: 'button',
            'data-key': 'submit',
            'data-testid': 'submit-order',
            disabled: sel.discard.length !== need || busy || (submitted && !changed),
            onclick: () => submit(m, order),
          },
          submitted ? (changed ? 'Replace my discards' : 'Discards submitted') : 'Discard these',
        ),
        submitted
          ? h(
              'button',
              {
                type: 'button',
                'data-key': 'withdraw',
                disabled: busy,
                onclick: () => withdraw(m),
              },
              'Withdraw',
            )
          : null,
        h(
          'button.link',
          { type: 'button', 'data-key': 'clear', onclick: () => ((sel.discard = []), redraw()) },
          'Clear',
        ),
      ),
    );
  }

  function waitingPanel(m) {
    const v = m.view;
    const w = m.windows[0];
    if (!w) return null;
    const waiting = w.seats
      .filter((s) => !w.submitted.includes(s))
      .map((s) => seatName(m.seats, s));
    const what = v.phase === 'place' ? 'placing' : 'discarding';
    return h(
      'section.panel.move.waiting',
      { 'aria-labelledby': 'move-h' },
      h('h2#move-h', 'Waiting'),
      h(
        'p',
        { role: 'status' },
        waiting.length ? `Waiting for ${listText(waiting)} (${what}).` : 'Resolving…',
      ),
    );
  }

  function handPanel(m, info) {
    const v = m.view;
    const hand = v.hand || [];
    const me = v.players[m.you];
    const placing = v.phase === 'place' && !!m.myWindow;
    const discarding = (v.phase === 'explore' || v.phase === 'limit') && !!m.myWindow;
    const cards = hand.map((r) => {
      const d = known.get(r.id);
      const role = roleOf(r.id);
      const acts = info && info.canPlace.get(r.id);
      return cardFace(d, {
        id: r.id,
        key: `card-${r.id}`,
        role: role.role,
        roleText: role.text,
        pressed: placing || discarding ? !!role.role : undefined,
        canPlace: acts ? [...acts].join(' ') : null,
        playable: placing && !!acts && !role.role,
        onClick: placing || discarding ? () => clickCard(m, r.id) : null,
      });
    });
    const survey = v.cards[v.survey_card];
    const centre =
      me && me.survey_available && v.phase === 'place'
        ? cardFace(survey, {
            key: 'card-survey',
            role: sel.survey ? 'placing' : null,
            roleText: sel.survey ? 'placing as development' : 'central card, once per game',
            pressed: placing ? sel.survey : undefined,
            canPlace: info && info.canPlace.get('S') ? [...info.canPlace.get('S')].join(' ') : null,
            playable: placing && info && info.canPlace.has('S') && !sel.survey,
            onClick: placing
              ? () => {
                  if (sel.survey) sel.survey = false;
                  else {
                    if (sel.action !== 'both') sel.action = 'develop';
                    Object.assign(sel, { survey: true, dev: null });
                  }
                  serverError = null;
                  announce(
                    sel.survey
                      ? `${survey.name}: placing as development`
                      : `${survey.name}: not placed`,
                  );
                  redraw();
                }
              : null,
          })
        : null;
    return h(
      'section.panel.hand',
      { 'aria-labelledby': 'hand-h' },
      h(
        'div.panel-head',
        h('h2#hand-h', `Your hand (${plural(hand.length, 'card')})`),
        placing
          ? h(
              'span.legend',
              h('span.legend-item.placing', 'placing'),
              h('span.legend-item.paying', 'paying'),
              h('span.legend-item.playable', 'can be placed'),
            )
          : null,
      ),
      h(
        'div.hand-cards',
        { role: placing || discarding ? 'group' : 'list', 'aria-label': 'Your hand' },
        cards,
        centre ? h('div.centre-slot', centre) : null,
      ),
    );
  }

  function lastText(m, p) {
    const l = p.last;
    if (!l) return null;
    const placed = (l.placed || []).map(
      (x) => `${cardName(x.id)}${x.conquered ? ' (conquered)' : ''}`,
    );
    const bits = [`Round ${l.round}: ${PAST[l.action] || l.action}`];
    if (placed.length) bits[0] += ` ${listText(placed)}`;
    if (l.paid) bits.push(`paid ${l.paid}`);
    if (l.explore_drew) bits.push(`drew ${l.explore_drew}, discarded ${l.explore_discarded}`);
    if (l.drew) bits.push(`drew ${l.drew}`);
    bits.push(`scored ${l.vp_scored}`);
    if (l.income_drew) bits.push(`income ${l.income_drew}`);
    if (l.limit_discarded) bits.push(`discarded ${l.limit_discarded} (limit)`);
    return bits.join(' · ');
  }

  function empiresPanel(m) {
    const v = m.view;
    const w = m.windows[0];
    const order = [...v.players].sort((a, b) =>
      a.seat === m.you ? -1 : b.seat === m.you ? 1 : a.seat - b.seat,
    );
    return h(
      'section.panel.empires',
      { 'aria-labelledby': 'emp-h' },
      h('h2#emp-h', v.players.length > 1 ? 'Empires' : 'Your empire'),
      order.map((p) => {
        let status = null;
        if (w && w.seats.includes(p.seat)) {
          const done = w.submitted.includes(p.seat);
          status = h(
            'span.tag',
            { class: done ? 'tag-done' : 'tag-wait', 'data-testid': `status-${p.seat}` },
            done ? 'submitted' : v.phase === 'place' ? 'choosing' : `discarding ${p.must_discard}`,
          );
        }
        const name = seatName(m.seats, p.seat);
        return h(
          'article.empire',
          {
            class: `seat-c${p.seat % 4}`,
            'aria-labelledby': `emp-${p.seat}`,
            dataset: { seat: p.seat },
          },
          h(
            'header.empire-head',
            h(
              'h3',
              { id: `emp-${p.seat}` },
              h('span.seat-swatch', { 'aria-hidden': 'true' }),
              name,
              p.seat === m.you ? h('span.tag.tag-you', 'you') : null,
            ),
            status,
          ),
          h(
            'ul.stats',
            { 'aria-label': `${name}'s empire` },
            h(
              'li.stat.chips',
              { title: 'VP chips' },
              h('strong', String(p.chips)),
              h('span', ' VP chips'),
            ),
            h(
              'li.stat',
              { title: 'VP scored each round' },
              h('span.badge.vp.small', { 'aria-hidden': 'true' }, String(p.vp)),
              h('span', ` VP/round`),
            ),
            h('li.stat', icon('income', p.income, `${p.income} income`)),
            h('li.stat', icon('military', p.military, `${p.military} military`)),
            h('li.stat', icon('explore', p.explore, `${p.explore} explore`)),
            h('li.stat', icon('hand', p.hand, `${p.hand} cards in hand`)),
            !v.solitaire && p.rival != null
              ? h('li.stat.muted', `rival: ${seatName(m.seats, p.rival)}`)
              : null,
          ),
          p.last ? h('p.last', lastText(m, p)) : null,
          p.empire.length
            ? h(
                'div.empire-cards',
                { role: 'list', 'aria-label': `${name}'s cards` },
                p.empire.map((r) => cardMini(v.cards[r.card], { id: r.id })),
              )
            : h('p.muted.empty', 'No cards placed yet.'),
        );
      }),
    );
  }

  // ----------------------------------------------------------- log --

  function describe(entry, m) {
    const e = entry.entry || {};
    const you = m.you;
    const name = (s) => (s === you ? 'You' : seatName(m.seats, s));
    switch (e.event) {
      case 'drew':
        return {
          text: `You drew ${plural(e.cards.length, 'card')}: ${e.cards.map(cardName).join(', ')}.`,
          kind: 'private',
        };
      case 'placed':
        return {
          round: `R${e.round}`,
          text: e.players
            .map(
              (p) =>
                `${name(p.seat)} ${PAST[p.action] || p.action}${p.placed.length ? ` ${listText(p.placed.map(cardName))}` : ''}${p.paid ? ` (paid ${p.paid})` : ''}`,
            )
            .join('; ')
            .concat('.'),
        };
      case 'explore':
        return {
          text: `${name(e.seat)} drew ${e.drew} exploring and must discard ${e.must_discard}.`,
        };
      case 'discarded':
        return {
          text: `${e.players.map((p) => `${name(p.seat)} discarded ${p.discarded}`).join('; ')} (${e.phase === 'explore' ? 'explore' : 'hand limit'}).`,
        };
      case 'score':
        return {
          round: `R${e.round}`,
          text: `Scored: ${e.vp.map((n, s) => `${name(s)} +${n} (${e.chips[s]})`).join(', ')}.`,
          kind: 'score',
        };
      case 'income':
        return {
          text: `Income: ${e.order.map((s, i) => `${name(s)} drew ${e.drew[i]}`).join(', ')}.`,
        };
      case 'reshuffle':
        return { text: `The discard pile was shuffled into a new deck (${e.cards} cards).` };
      case 'end':
        return { text: `The game ended after round ${e.round}.`, kind: 'score' };
      default:
        break;
    }
    if (e.type === 'reveal') {
      const late = (e.orders || []).filter((o) => o.default).map((o) => name(o.seat));
      return late.length
        ? { text: `Time ran out: ${listText(late)} ${timeoutDefaultText(e.window)}.` }
        : null;
    }
    if (e.type === 'your_order') {
      const ok = c.receiptOk(e);
      const short = (e.receipt || '').slice(0, 10);
      const what = windowWords(e.window);
      return {
        text:
          ok === true
            ? `Your ${what} was resolved as sent.`
            : ok === false
              ? `Warning: your revealed ${what} does not match the receipt this browser was given!`
              : `Your ${what} was resolved.`,
        detail: `Receipt ${e.receipt || ''}${ok === true ? ', checked against the reveal' : ok === false ? ', which does not match the reveal' : ''} (window ${e.window}; receipt ${short}…).`,
        kind: ok === false ? 'warn' : 'private',
      };
    }
    if (e.type === 'submitted') return null; // the empire panels show it live
    const t = describeEngineEntry(e, m.seats, you);
    return t ? { text: t } : null;
  }

  // ---------------------------------------------------------- update --

  return {
    update(root, m) {
      const v = m.view;
      if (!v || !v.players) return render(root, h('p.muted', 'Loading…'));
      learn(v);
      syncWindow(m);
      if (serverError && isOutage(serverError) && !c.pending) serverError = null; // sent again
      const info = legalInfo(m);
      const w = m.myWindow;
      let move = null;
      if (!m.spectator && m.status === 'running') {
        if (w && v.phase === 'place') move = orderPanel(m, info);
        else if (w) move = discardPanel(m);
        else move = waitingPanel(m);
      }
      const lines = m.log
        .map((e) => {
          const d = describe(e, m);
          return d ? { seq: e.seq, ...d } : null;
        })
        .filter(Boolean);
      render(
        root,
        topPanel(m),
        resultPanel(m),
        h(
          'div.sprint-grid',
          h('div.sprint-main', move, m.spectator ? null : handPanel(m, info), empiresPanel(m)),
          h('aside.sprint-side', { 'aria-label': 'Game log' }, logPanel(lines)),
        ),
      );
      focusMove(m);
    },
  };
}
