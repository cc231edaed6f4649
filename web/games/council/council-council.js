// council-council.js - the council phase of the Galactic Council table:
// the speaker, the agenda and its text, laws in force and this round's
// objective value; the speaker's agenda choice (open window rN.agenda:
// POST /plays {"agenda"}); the lobby (sealed rN.lobby, in parts: the
// representative chosen in secret and a spy's target, council action
// cards, gifts of trade goods, the Chancery holder's objective; the spies
// act when it closes); the council window (sealed rN.council, in parts:
// the survivors shown, the vote, command markers at the triangular cost,
// diplomatic captures, gifts) with the windows' deadline;
// and the last council as a short sequence: representatives revealed,
// spies acting from the speaker clockwise, the vote with each player's
// weight (only the outcome when votes are secret) and the outcome.
// Parts go to PUT .../orders/{window}/parts/{key} as they are chosen;
// "Send" puts the reserved part "ready".
//
// createCouncil(c) -> {panel(m, ctx)}; ctx: {galaxy, you, me, names}.

import { api } from '../../api.js';
import { h, toast, announce, plural } from '../../ui.js';
import { countdown } from '../../gamekit.js';
import { repsOf, ROLE_TEXT } from './council-reps.js';
import { councilEntries, councilPartText, lastSequence } from './council-agenda-text.js';

const READY = 'ready';
const SEAT_CARDS = new Set(['gag_order']);
const AMOUNT_CARDS = new Set(['bribe', 'backroom_deal']);
const hexDistance = (a, b) =>
  (Math.abs(a[0] - b[0]) + Math.abs(a[0] + a[1] - b[0] - b[1]) + Math.abs(a[1] - b[1])) / 2;

export const isCouncilWindow = (id) => /\.(agenda|lobby|council)$/.test(id || '');

// Rules edition 2 (view.lobby_in_action): the lobby's parts go in the
// action window, beside the fleet orders. A lobby part is a representative,
// a gift, the objective pick or a council card's play; the composer's own
// action card play is the part "card".
export const isLobbyPart = (key, part) =>
  !!part &&
  !Array.isArray(part) &&
  (['representative', 'give', 'objective'].includes(part.type) ||
    (part.type === 'play' && key !== 'card'));

// The window that takes the lobby's parts: rN.lobby, or the action window
// in edition 2.
export const isLobbyWindow = (vw, id) =>
  /\.lobby$/.test(id || '') || (!!(vw && vw.lobby_in_action) && /\.action$/.test(id || ''));

// Planets seat may try to take by diplomacy: explored, not a home world or
// the capital, not its own, no troops, no marker it knows face up, in a
// system next to one where it holds a planet. The engine decides.
export function captureChoices(galaxy, seat) {
  const sectors = (galaxy && galaxy.sectors) || [];
  const mine = sectors
    .filter((s) => (s.planets || []).some((p) => p.owner === seat))
    .map((s) => [s.q, s.r]);
  const out = [];
  for (const s of sectors) {
    if (!s.explored || s.kind === 'capital' || (s.home !== null && s.home !== undefined)) continue;
    if (!mine.some((h2) => hexDistance(h2, [s.q, s.r]) === 1)) continue;
    (s.planets || []).forEach((p, i) => {
      if (p.owner === seat || p.troops > 0 || (p.marker && p.marker !== 'hidden')) return;
      out.push({
        index: sectors.indexOf(s),
        sector: [s.q, s.r],
        planet: i,
        name: p.name,
        owner: p.owner,
        influence: p.influence,
        resources: p.resources,
      });
    });
  }
  return out;
}

export function createCouncil(c) {
  const state = {
    busy: false,
    target: {},
    give: { seat: null, tg: 1 },
    amount: {},
    silence: {},
    shown: 0,
  };

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
  const put = (w, key, value, done) => call(() => api.putOrderPart(c.id, w.id, key, value), done);
  const del = (w, key, done) => call(() => api.deleteOrderPart(c.id, w.id, key), done);

  // The table's public facts: speaker, agenda, laws, objective value.
  function facts(m, vw, ctx) {
    const co = vw.council || {};
    const who = ctx.names.seat;
    const a = co.agenda;
    const speaker = co.speaker !== null && co.speaker !== undefined ? co.speaker : vw.speaker;
    return h(
      'div.cn-facts',
      h(
        'p',
        h('strong', 'Speaker: '),
        speaker === m.you ? 'you' : who(speaker),
        h('span.muted', ' — puts the agenda, acts first, and breaks tied votes.'),
      ),
      a
        ? h(
            'div.cn-agenda',
            { 'aria-label': 'The agenda' },
            h(
              'p.cn-agenda-name',
              h(
                'span.tag',
                a.kind === 'election' ? 'Election' : a.lasting ? 'Law (lasting)' : 'Law',
              ),
              ' ',
              h('strong', a.name),
              co.tabled ? h('span.tag.tag-warn', 'tabled') : null,
            ),
            h('p.cn-agenda-text', a.text),
            h(
              'p.hint',
              a.kind === 'election'
                ? 'Each player votes for one player; the one with the most votes is elected.'
                : 'Each player votes for or against; the law passes with more votes for than against.',
            ),
          )
        : vw.phase === 'agenda'
          ? h(
              'p',
              speaker === m.you
                ? 'You choose the agenda.'
                : `${who(speaker)} is choosing the agenda.`,
            )
          : h('p.muted', 'No agenda on the table.'),
      h(
        'p',
        h('strong', 'Laws in force: '),
        (co.laws || []).length
          ? co.laws.map((l, i) => [
              i ? '; ' : '',
              h('span.cn-law', { title: l.text }, l.name),
              ` (${l.text})`,
            ])
          : 'none.',
      ),
      h(
        'p',
        h('strong', `A public objective opened this round is worth ${co.objective_value || 1} VP`),
        h('span.muted', ' (rounds 1–5: 1 VP, 6–9: 2 VP, from round 10: 3 VP).'),
      ),
      co.secret_votes
        ? h('p.hint', 'Secret votes: only the outcome is shown, not the totals or who voted how.')
        : null,
    );
  }

  function agendaChoice(m, vw, w) {
    if (!w || w.mode !== 'open' || !/\.agenda$/.test(w.id)) return null;
    const held = (vw.you && vw.you.agendas) || [];
    return h(
      'div.cn-choose',
      { role: 'group', 'aria-labelledby': 'cn-agenda-h' },
      h('h3#cn-agenda-h', 'Choose the agenda'),
      h('p.hint', 'You hold Forum: put one of these to the vote. Everyone sees it at once.'),
      h(
        'div.cn-agenda-list',
        held.map((a) =>
          h(
            'button.button.cn-card',
            {
              type: 'button',
              'data-key': `agenda-${a.key}`,
              disabled: state.busy,
              onclick: () =>
                call(() => c.play({ window: w.id, agenda: a.key }), `${a.name} is on the agenda`),
            },
            h('span', h('strong', a.name), h('span.muted', ` (${a.kind})`)),
            h('span.cn-card-text', a.text),
          ),
        ),
      ),
    );
  }

  function numberInput(label, value, min, max, onInput, key) {
    return h(
      'label.cn-num',
      h('span', label),
      h('input', {
        type: 'number',
        min,
        max,
        value: String(value),
        inputmode: 'numeric',
        'data-key': key,
        oninput: (e) => onInput(Math.max(min, Math.min(max, parseInt(e.target.value, 10) || min))),
      }),
    );
  }

  function seatSelect(label, value, seats, onChange, key, names, none) {
    return h(
      'select',
      {
        'aria-label': label,
        'data-key': key,
        onchange: (e) => onChange(e.target.value === '' ? null : Number(e.target.value)),
      },
      none ? h('option', { value: '', selected: value === null }, none) : null,
      seats.map((s) => h('option', { value: String(s), selected: s === value }, names.seat(s))),
    );
  }

  // Gifts of trade goods (the bribe): in the lobby and the council window.
  function giveBox(m, vw, w, ctx, held) {
    const me = ctx.me;
    const others = (vw.players || []).map((p) => p.seat).filter((s) => s !== m.you);
    if (state.give.seat === null || !others.includes(state.give.seat)) state.give.seat = others[0];
    const tg = me ? me.trade_goods : 0;
    const key = `give_${state.give.seat}`;
    return h(
      'div.cn-give',
      { role: 'group', 'aria-labelledby': 'cn-give-h' },
      h('h3#cn-give-h', 'Give trade goods'),
      h(
        'p.hint',
        'A bribe, a payment, a promise kept: trade goods you give are handed over when the window closes. Nothing binds the other player.',
      ),
      tg
        ? h(
            'div.row.cn-give-row',
            h(
              'label.cn-field',
              h('span', 'To'),
              seatSelect(
                'Give to',
                state.give.seat,
                others,
                (s) => {
                  state.give.seat = s;
                  c.draw();
                },
                'give-seat',
                ctx.names,
              ),
            ),
            numberInput(
              `Trade goods (of ${tg})`,
              Math.min(state.give.tg, tg),
              1,
              Math.min(99, tg),
              (n) => {
                state.give.tg = n;
              },
              'give-tg',
            ),
            h(
              'button.button',
              {
                type: 'button',
                'data-key': 'give-add',
                disabled: state.busy,
                onclick: () =>
                  put(
                    w,
                    key,
                    {
                      type: 'give',
                      seat: state.give.seat,
                      trade_goods: Math.min(state.give.tg, tg),
                    },
                    'Gift added',
                  ),
              },
              held[key] ? 'Change the gift' : 'Add the gift',
            ),
          )
        : h('p.muted', 'You have no trade goods to give.'),
    );
  }

  function lobbyParts(m, vw, w, ctx, held) {
    const you = vw.you || {};
    const cards = (you.hand || []).filter((a) => a.timing === 'council');
    const others = (vw.players || []).map((p) => p.seat).filter((s) => s !== m.you);
    const me = ctx.me;
    const out = [
      h(
        'p.hint',
        vw.lobby_in_action
          ? 'The lobby, sent with your fleet orders: your representative (the spies act when this window closes, before the fleets move and before the debate), action cards that change this council (a veto replaces the agenda; others add votes or protect your representative) and gifts of trade goods. Talk it over: the vote comes in the council window, at the end of the round.'
          : `The lobby: send your representative (the spies act when this window closes, before the debate), play action cards that change this council (a veto replaces the agenda; others add votes or protect your representative) and give trade goods. Talk it over: ${(vw.council || {}).mode === 'every_round' ? 'the vote comes at the end of the round, after the action phase' : 'the vote follows this window'}.`,
      ),
    ];
    out.push(
      h(
        'div.cn-cards-play',
        { role: 'group', 'aria-labelledby': 'cn-play-h' },
        h('h3#cn-play-h', 'Your council cards'),
        cards.length
          ? h(
              'ul.cn-obj',
              cards.map((a) => {
                const key = `p_${a.key}`.slice(0, 16);
                const part = { type: 'play', card: a.key };
                const extra = [];
                if (SEAT_CARDS.has(a.key)) {
                  if (state.silence[a.key] === undefined) state.silence[a.key] = others[0];
                  part.seat = state.silence[a.key];
                  extra.push(
                    seatSelect(
                      `${a.name}: which player`,
                      part.seat,
                      others,
                      (s) => {
                        state.silence[a.key] = s;
                        c.draw();
                      },
                      `card-seat-${a.key}`,
                      ctx.names,
                    ),
                  );
                }
                if (AMOUNT_CARDS.has(a.key)) {
                  const max = Math.max(1, Math.min(9, me ? me.trade_goods : 1));
                  part.amount = Math.min(state.amount[a.key] || 1, max);
                  extra.push(
                    numberInput(
                      'Trade goods to pay',
                      part.amount,
                      1,
                      max,
                      (n) => {
                        state.amount[a.key] = n;
                        part.amount = n;
                      },
                      `card-amount-${a.key}`,
                    ),
                  );
                }
                return h(
                  'li.cn-card-row',
                  h('strong', a.name),
                  ` ${a.text}`,
                  h(
                    'div.row',
                    extra,
                    held[key]
                      ? h('span.tag.tag-done', 'to be played')
                      : h(
                          'button.button',
                          {
                            type: 'button',
                            'data-key': `play-${a.key}`,
                            disabled: state.busy,
                            onclick: () => put(w, key, part, `${a.name} will be played`),
                          },
                          `Play ${a.name}`,
                        ),
                  ),
                );
              }),
            )
          : h('p.muted', 'You hold no action card for the council.'),
      ),
    );
    if (me && me.card === 'chancery')
      out.push(
        h(
          'div.cn-objective-pick',
          { role: 'group', 'aria-label': 'The new public objective' },
          h('h3', 'The new public objective'),
          h(
            'p.hint',
            'You hold Chancery: choose which of the next two public objectives opens this round (otherwise the first).',
          ),
          h(
            'div.row',
            [0, 1].map((p) =>
              h(
                'button.button',
                {
                  type: 'button',
                  'data-key': `objective-${p}`,
                  'aria-pressed': held.objective && held.objective.pick === p ? 'true' : 'false',
                  disabled: state.busy,
                  onclick: () =>
                    put(w, 'objective', { type: 'objective', pick: p }, 'Objective chosen'),
                },
                p ? 'The second' : 'The first',
              ),
            ),
          ),
        ),
      );
    out.push(repChoice(m, vw, w, ctx, held));
    out.push(giveBox(m, vw, w, ctx, held));
    return out;
  }

  // The votes the seat would cast with representative r.
  function weightOf(me, r) {
    if (!me) return 0;
    return (
      (me.influence || 0) +
      r.influence +
      (r.ability === 'orator' ? Math.floor(me.trade_goods / 3) : 0) +
      (me.vote_bonus || 0)
    );
  }

  function repChoice(m, vw, w, ctx, held) {
    const me = ctx.me;
    const reps = repsOf(vw.you && vw.you.representatives);
    const cur = held.representative || null;
    const others = (vw.players || []).map((p) => p.seat).filter((s) => s !== m.you);
    const target =
      cur && cur.role === 'spy'
        ? cur.target
        : state.target[w.id] !== undefined
          ? state.target[w.id]
          : others[0];
    const send = (role, t) =>
      put(
        w,
        'representative',
        role === 'spy'
          ? { type: 'representative', role, target: t }
          : { type: 'representative', role },
        'Representative chosen (secret until the reveal)',
      );
    return h(
      'fieldset.cn-reps',
      h(
        'legend',
        h('strong', 'Your representative'),
        h(
          'span.muted',
          ` — secret until the ${vw.lobby_in_action ? 'action window' : 'lobby'} closes; the spies act then`,
        ),
      ),
      h(
        'p.hint',
        "Your votes are your planets' influence plus your representative's. Choose one to send; no choice sends a clerk.",
      ),
      reps.map((r) =>
        h(
          'label.cn-rep',
          { class: cur && cur.role === r.role ? 'cn-rep-on' : null },
          h('input', {
            type: 'radio',
            name: `cn-rep-${w.id}`,
            value: r.role,
            'data-key': `rep-${r.role}`,
            checked: !!(cur && cur.role === r.role),
            disabled: state.busy,
            onchange: () => send(r.role, target),
          }),
          h(
            'span.cn-rep-body',
            h('strong', `${r.name}`),
            h('span.tag', r.role),
            ` influence +${r.influence}; ${r.text} `,
            h('span.muted', ROLE_TEXT[r.role]),
            h('span.cn-rep-votes', ` You would cast ${plural(weightOf(me, r), 'vote')}.`),
          ),
        ),
      ),
      h(
        'label.cn-field',
        h('span', "Spy's target"),
        seatSelect(
          "Spy's target",
          target,
          others,
          (s) => {
            state.target[w.id] = s;
            if (cur && cur.role === 'spy') send('spy', s);
            else c.draw();
          },
          'rep-target',
          ctx.names,
        ),
      ),
    );
  }

  function voteChoice(m, vw, w, ctx, held) {
    const co = vw.council || {};
    const a = co.agenda;
    if (!a || co.tabled) return h('p.muted', 'No vote this council.');
    const mine = (co.seated || []).find((r) => r.seat === m.you);
    if (mine && mine.fate !== 'seated')
      return h(
        'p.cn-removed',
        { 'data-key': 'vote-removed' },
        'Your representative was removed before the debate: you do not vote on this agenda.',
      );
    const cur = held.vote || null;
    if (a.kind === 'election') {
      const seats = (vw.players || []).map((p) => p.seat);
      return h(
        'div.cn-vote',
        { role: 'group', 'aria-labelledby': 'cn-vote-h' },
        h('h3#cn-vote-h', `Your vote: ${a.name}`),
        h(
          'label.cn-field',
          h('span', 'Elect'),
          seatSelect(
            'Elect',
            cur ? cur.seat : null,
            seats,
            (s) =>
              s === null
                ? del(w, 'vote', 'No vote')
                : put(w, 'vote', { type: 'vote', seat: s }, 'Vote saved'),
            'vote-seat',
            ctx.names,
            'no vote (abstain)',
          ),
        ),
      );
    }
    const opt = (label, val, key) =>
      h(
        'label.cn-radio',
        h('input', {
          type: 'radio',
          name: `cn-vote-${w.id}`,
          'data-key': key,
          checked: val === null ? !cur : !!(cur && cur.for === val),
          disabled: state.busy,
          onchange: () =>
            val === null
              ? del(w, 'vote', 'No vote')
              : put(w, 'vote', { type: 'vote', for: val }, 'Vote saved'),
        }),
        ` ${label}`,
      );
    return h(
      'fieldset.cn-vote',
      h('legend', h('strong', `Your vote: ${a.name}`)),
      h(
        'div.row',
        opt('For', true, 'vote-for'),
        opt('Against', false, 'vote-against'),
        opt('Abstain', null, 'vote-none'),
      ),
    );
  }

  function markerChoice(m, vw, w, ctx, held) {
    const costs = (vw.council && vw.council.marker_costs) || [1, 3, 6, 10, 15];
    const cur = held.markers ? held.markers.count : 0;
    return h(
      'div.cn-markers',
      { role: 'group', 'aria-labelledby': 'cn-markers-h' },
      h('h3#cn-markers-h', 'Buy command markers'),
      h(
        'p.hint',
        "Each marker costs one more influence than the last: the first 1, the second 2, the third 3… Paid from your planets' influence, then trade goods; they go to your tactic pool.",
      ),
      h(
        'label.cn-field',
        h('span', 'Markers'),
        h(
          'select',
          {
            'aria-label': 'Command markers to buy',
            'data-key': 'markers',
            disabled: state.busy,
            onchange: (e) => {
              const n = Number(e.target.value);
              return n
                ? put(w, 'markers', { type: 'markers', count: n }, 'Markers saved')
                : del(w, 'markers', 'No markers');
            },
          },
          h('option', { value: '0', selected: cur === 0 }, 'none'),
          costs.map((cost, i) =>
            h(
              'option',
              { value: String(i + 1), selected: cur === i + 1 },
              `${i + 1} for ${cost} influence`,
            ),
          ),
        ),
      ),
    );
  }

  function captureBox(m, vw, w, ctx, held) {
    const list = captureChoices(ctx.galaxy, m.you);
    const law = ((vw.council && vw.council.laws) || []).some((l) => l.key === 'border_accord');
    return h(
      'div.cn-capture',
      { role: 'group', 'aria-labelledby': 'cn-capture-h' },
      h('h3#cn-capture-h', 'Diplomatic capture'),
      h(
        'p.hint',
        'Spend 1 command marker and 3 influence to take an empty planet (no troops, no buildings, no neutral marker turned face up) next to one of your systems. Not home worlds or Concordia. Captures go in initiative order.',
      ),
      law ? h('p.cn-stale-note', 'A law in force forbids diplomatic capture.') : null,
      list.length
        ? h(
            'ul.cn-capture-list',
            list.map((x) => {
              const key = `cap_${x.index}_${x.planet}`;
              const on = !!held[key];
              return h(
                'li',
                h(
                  'label',
                  h('input', {
                    type: 'checkbox',
                    'data-key': `cap-${x.sector[0]},${x.sector[1]},${x.planet}`,
                    checked: on,
                    disabled: state.busy,
                    onchange: () =>
                      on
                        ? del(w, key, 'Capture removed')
                        : put(
                            w,
                            key,
                            { type: 'capture', sector: x.sector, planet: x.planet },
                            'Capture added',
                          ),
                  }),
                  ` ${x.name} at (${x.sector[0]}, ${x.sector[1]}), influence ${x.influence}${x.owner !== null && x.owner !== undefined ? `, held by ${ctx.names.seat(x.owner)}` : ', neutral'}`,
                ),
              );
            }),
          )
        : h('p.muted', 'No planet next to yours can be taken now.'),
    );
  }

  function heldList(m, vw, w, ctx, held, sent) {
    const keys = Object.keys(held).sort();
    if (!keys.length) return null;
    const hand = Object.fromEntries(((vw.you && vw.you.hand) || []).map((a) => [a.key, a.name]));
    const galaxyName = (hex, i) => {
      const s = ((ctx.galaxy && ctx.galaxy.sectors) || []).find(
        (x) => x.q === hex[0] && x.r === hex[1],
      );
      return `${(s && s.planets && s.planets[i] && s.planets[i].name) || `planet ${i + 1}`} at (${hex[0]}, ${hex[1]})`;
    };
    return h(
      'ol.cn-parts',
      { 'aria-label': 'Your choices' },
      keys.map((k) =>
        h(
          'li.cn-part',
          { dataset: { part: k } },
          h(
            'span.cn-part-text',
            councilPartText(held[k], ctx.names.seat, galaxyName, (k2) => hand[k2]),
          ),
          sent
            ? null
            : h(
                'span.cn-part-act',
                h(
                  'button.link.danger',
                  {
                    type: 'button',
                    'data-key': `del-${k}`,
                    'aria-label': `Remove: ${councilPartText(held[k], ctx.names.seat, galaxyName, (k2) => hand[k2])}`,
                    disabled: state.busy,
                    onclick: () => del(w, k, 'Removed'),
                  },
                  'Remove',
                ),
              ),
        ),
      ),
    );
  }

  // This council's representatives after the spies (council.seated, public
  // from the lobby's end to the vote).
  function seatedList(vw, ctx) {
    const seated = (vw.council || {}).seated;
    if (!seated) return null;
    const who = ctx.names.seat;
    return h(
      'div.cn-seated',
      { role: 'group', 'aria-labelledby': 'cn-seated-h' },
      h('h3#cn-seated-h', 'At the council after the spies'),
      h(
        'ul',
        seated.map((r) =>
          h(
            'li',
            { 'data-seat': String(r.seat), 'data-fate': r.fate },
            `${who(r.seat)}: ${r.name} (${r.role})${r.fate === 'seated' ? '' : r.fate === 'killed' ? ' — killed' : ' — struck down'}`,
          ),
        ),
      ),
    );
  }

  // The lobby or council window's choices, with Send / Edit. In the action
  // window (edition 2) only its lobby parts, sent with the fleet orders.
  function windowBox(m, vw, w, ctx) {
    if (!w || w.mode !== 'sealed') return null;
    const lobby = isLobbyWindow(vw, w.id);
    if (!lobby && !/\.council$/.test(w.id)) return null;
    const merged = /\.action$/.test(w.id);
    const mine = (vw.my_orders || {})[w.id] || {};
    const sent = mine[READY] === true;
    const held = Object.fromEntries(
      Object.entries(mine).filter(([k, v]) => k !== READY && (!merged || isLobbyPart(k, v))),
    );
    const body = sent
      ? []
      : lobby
        ? lobbyParts(m, vw, w, ctx, held)
        : [
            seatedList(vw, ctx),
            voteChoice(m, vw, w, ctx, held),
            markerChoice(m, vw, w, ctx, held),
            captureBox(m, vw, w, ctx, held),
            giveBox(m, vw, w, ctx, held),
          ];
    return h(
      'div.cn-window',
      { 'data-window': w.id },
      h(
        'h3',
        lobby ? 'The lobby: your representative, action cards and gifts' : 'The council: the vote',
      ),
      w.deadline
        ? countdown(
            w.deadline,
            merged
              ? 'The action window closes in'
              : lobby
                ? 'The card window closes in'
                : 'The council window closes in',
          )
        : h('p.muted', 'No time limit: the window closes once every player has sent.'),
      h(
        // In the action window the composer's status line speaks for both.
        merged ? 'p.muted.cn-lobby-state' : 'p.cn-sent',
        { role: merged ? null : 'status' },
        sent
          ? 'Sent. Your choices stay secret until every player has sent (or time runs out).'
          : Object.keys(held).length
            ? 'Saved on the server, not sent yet.'
            : merged
              ? 'No lobby choices: a plain clerk goes for you.'
              : lobby
                ? 'Nothing chosen: you may simply send.'
                : 'Nothing chosen yet: without a vote you abstain.',
      ),
      heldList(m, vw, w, ctx, held, sent),
      body,
      merged
        ? h(
            'p.hint',
            sent
              ? 'Sent with your fleet orders.'
              : '“Send orders”, with your fleet orders, sends these too.',
          )
        : h(
            'div.row.cn-send',
            sent
              ? h(
                  'button.button',
                  {
                    type: 'button',
                    'data-key': 'council-edit',
                    disabled: state.busy,
                    onclick: () => del(w, READY, 'You can change your choices'),
                  },
                  'Change my choices',
                )
              : h(
                  'button.button.primary',
                  {
                    type: 'button',
                    'data-key': 'council-send',
                    disabled: state.busy,
                    onclick: () => put(w, READY, true, 'Choices sent'),
                  },
                  'Send',
                ),
          ),
    );
  }

  // The last council as a sequence: reveal, spies in order, the vote.
  // Its log entries are those of the council that last voted (the round
  // of view.council.last), not the newest "council" entry's, which may be
  // the next council's; each spy's result is the server's (spy_result).
  function lastResult(m, vw, ctx) {
    const last = vw.council && vw.council.last;
    if (!last) return null;
    const who = (s) => (s === m.you ? 'You' : ctx.names.seat(s));
    const reps = last.representatives || [];
    const entries = councilEntries(m.log, last.round);
    const a = last.agenda;
    const law = a && a.kind !== 'election';
    const seq = lastSequence(last, entries, who).map((l) =>
      h(
        'li',
        { class: l.cls || null },
        l.label ? h('strong', l.label) : null,
        l.strong ? h('strong', l.text) : l.text,
      ),
    );
    const fresh = state.shown !== last.round;
    state.shown = last.round;
    const secret = vw.council && vw.council.secret_votes;
    return h(
      'div.cn-last',
      { 'aria-labelledby': 'cn-last-h' },
      h('h3#cn-last-h', `Council of round ${last.round}${a ? `: ${a.name}` : ''}`),
      h(
        'ol.cn-seq',
        { class: fresh ? 'cn-anim' : null, 'aria-live': 'polite' },
        seq.map((li, i) => (li.style.setProperty('--i', String(i)), li)),
      ),
      h(
        'div.cn-table-wrap',
        { tabindex: '0', role: 'region', 'aria-label': 'The vote, player by player' },
        h(
          'table.cn-table.cn-vote-table',
          h(
            'thead',
            h(
              'tr',
              ['Player', 'Representative', 'Fate', ...(secret ? [] : ['Vote', 'Votes'])].map((x) =>
                h('th', { scope: 'col' }, x),
              ),
            ),
          ),
          h(
            'tbody',
            reps.map((r) =>
              h(
                'tr',
                { class: r.seat === m.you ? 'cn-me' : null },
                h('th', { scope: 'row' }, ctx.names.seat(r.seat)),
                h('td', `${r.name} (${r.role})`),
                h(
                  'td',
                  r.fate === 'seated' ? 'seated' : r.fate === 'killed' ? 'killed' : 'struck down',
                ),
                secret
                  ? null
                  : h(
                      'td',
                      r.vote === null || r.vote === undefined
                        ? '—'
                        : law
                          ? r.vote
                            ? 'for'
                            : 'against'
                          : ctx.names.seat(r.vote),
                    ),
                secret ? null : h('td', String(r.weight || 0)),
              ),
            ),
          ),
        ),
      ),
      secret ? h('p.hint', 'Votes are secret in this game: only the outcome is known.') : null,
    );
  }

  function panel(m, ctx) {
    const vw = m.view || {};
    const co = vw.council;
    if (!co || co.mode === 'off') return null;
    const w =
      m.myWindow && (isCouncilWindow(m.myWindow.id) || isLobbyWindow(vw, m.myWindow.id))
        ? m.myWindow
        : null;
    const open = m.windows && m.windows[0];
    const inCouncil = ['agenda', 'lobby', 'council'].includes(vw.phase);
    return h(
      'section.panel.cn-council',
      { 'aria-labelledby': 'cn-council-h' },
      h('h2#cn-council-h', 'The Galactic Council'),
      facts(m, vw, ctx),
      inCouncil && open && !w ? countdown(open.deadline, 'This council window closes in') : null,
      agendaChoice(m, vw, w),
      windowBox(m, vw, w, ctx),
      lastResult(m, vw, ctx),
      h(
        'details.cn-council-help',
        h('summary', 'How the council works'),
        h(
          'ol',
          h(
            'li',
            "The speaker (Forum's holder, else the lowest initiative) puts an agenda: a law (for or against) or an election of a player.",
          ),
          h(
            'li',
            `The lobby${vw.lobby_in_action ? ' (in this game, sent with the fleet orders of the action phase)' : ''}: each player secretly sends one representative — spy, bodyguard, councillor or a plain clerk — and may play council action cards (a veto replaces the agenda) and give trade goods. When it closes the representatives are revealed and the spies act one by one from the speaker clockwise, before the debate.`,
          ),
          h(
            'li',
            'The vote comes in the council window, at the end of the round (after the action phase) or right after the lobby. A player whose representative was removed does not vote.',
          ),
          h(
            'li',
            "Votes: your planets' influence plus your representative's. The side with more votes wins; the speaker breaks ties. Lasting laws stay in force until repealed.",
          ),
          h(
            'li',
            'In the same window you may buy command markers (1, then 2, then 3 influence…) and capture empty planets next to yours by diplomacy.',
          ),
        ),
      ),
    );
  }

  return { state, panel };
}
