// council.js - the Galactic Council table: the round timeline (round,
// phase, strategy picks, who has sent orders), the galaxy map from the
// seat's view (council-map.js) with a panel for the selected system, the
// strategy picks (by default one sealed window rN.picks: the seat ranks
// the cards with up/down buttons and sends {"ranking"}; with option
// strategy_picks 1 an open window per pick: POST /plays {"card"}), the
// order composer
// (council-orders.js), the players' public facts (VP, trade goods, the
// resources and influence of their planets, command pools, hand counts,
// planets, technologies), the objectives, your hand, the council phase
// (council-council.js: agenda, lobby and council windows, the last vote),
// the log in plain words (council-text.js) and a short "how to play".

import { h, render, toast, announce } from '../../ui.js';
import { seatName, countdown, logPanel } from '../../gamekit.js';
import { createMap } from './council-map.js';
import { createComposer } from './council-orders.js';
import { createCouncil } from './council-council.js';
import {
  describeEntry,
  hexLabel,
  sectorAt,
  humanize,
  unitsText,
  speakerNow,
} from './council-text.js';

const PHASES = ['strategy', 'agenda', 'lobby', 'action', 'council', 'status'];
const COUNCIL_PHASES = ['agenda', 'lobby', 'council'];

export function councilRenderer(c) {
  const composer = createComposer(c);
  const council = createCouncil(c);
  let ctx = null;
  const map = createMap({
    onSelect(hex) {
      if (ctx && composer.onMapSelect(hex, ctx)) {
        c.draw();
        return;
      }
      composer.state.selected = hex;
      c.draw();
    },
  });
  let picking = false;

  async function pick(w, card) {
    if (picking) return;
    picking = true;
    try {
      await c.play({ window: w.id, card });
    } catch (e) {
      toast(e.detail || e.message, 'error');
    } finally {
      picking = false;
      c.draw();
    }
  }

  // The ranked picks: this seat's ordering being edited (window id, keys).
  const rank = { window: null, keys: [], sending: false };

  function rankingOf(v, w) {
    if (rank.window !== w.id) {
      const held = (v.my_orders || {})[w.id];
      const all = (v.strategy_cards || [])
        .slice()
        .sort((a, b) => a.initiative - b.initiative)
        .map((k) => k.key);
      const given = held && Array.isArray(held.ranking) ? held.ranking : [];
      rank.window = w.id;
      rank.keys = [...given, ...all.filter((k) => !given.includes(k))];
    }
    return rank.keys;
  }

  function move(i, by, name) {
    const j = i + by;
    if (j < 0 || j >= rank.keys.length) return;
    const key = rank.keys[i];
    [rank.keys[i], rank.keys[j]] = [rank.keys[j], rank.keys[i]];
    announce(`${name} is now number ${j + 1}`);
    c.draw(); // the focus stays on the same card's button (render keeps it)
    // at the top or the bottom that button is disabled: the other one
    if (document.activeElement?.dataset?.key?.startsWith('rank-')) return;
    document.querySelector(`[data-key="rank-${by < 0 ? 'down' : 'up'}-${key}"]`)?.focus();
  }

  async function sendRanking(w) {
    if (rank.sending) return;
    rank.sending = true;
    try {
      await c.putOrder(w.id, { ranking: rank.keys.slice() });
      toast('Ranking sent');
    } catch (e) {
      toast(e.detail || e.message, 'error');
    } finally {
      rank.sending = false;
      c.draw();
    }
  }

  function rankPanel(m, v, w) {
    const keys = rankingOf(v, w);
    const cards = Object.fromEntries((v.strategy_cards || []).map((k) => [k.key, k]));
    const sent = (w.submitted || []).includes(m.you);
    const order = (v.pick_order || []).map((s) => (s === m.you ? 'you' : seatName(m.seats, s)));
    return h(
      'section.panel.cn-pick.cn-rank',
      { 'aria-labelledby': 'cn-pick-h' },
      h('h2#cn-pick-h', 'Rank the strategy cards'),
      h(
        'p.hint',
        `Everyone ranks the cards at once, in secret. Then, from the speaker clockwise (${order.join(', ')}), each player takes the highest card on their list that is still free. A card's number is its initiative: lower acts first in the action phase.`,
      ),
      h(
        'ol.cn-rank-list',
        { 'aria-label': 'Your ranking, first choice first' },
        keys.map((key, i) => {
          const k = cards[key] || { name: key, initiative: '?' };
          return h(
            'li.cn-rank-item',
            { 'data-key': `rank-${key}` },
            h(
              'span.cn-rank-name',
              h('strong', `${i + 1}. ${k.name}`),
              ` (initiative ${k.initiative})`,
            ),
            h(
              'button.button',
              {
                type: 'button',
                'data-key': `rank-up-${key}`,
                'aria-label': `Move ${k.name} up`,
                disabled: i === 0 || rank.sending,
                onclick: () => move(i, -1, k.name),
              },
              'Up',
            ),
            h(
              'button.button',
              {
                type: 'button',
                'data-key': `rank-down-${key}`,
                'aria-label': `Move ${k.name} down`,
                disabled: i === keys.length - 1 || rank.sending,
                onclick: () => move(i, 1, k.name),
              },
              'Down',
            ),
          );
        }),
      ),
      h(
        'p.result-actions',
        h(
          'button.button.primary',
          {
            type: 'button',
            'data-key': 'rank-send',
            disabled: rank.sending,
            onclick: () => sendRanking(w),
          },
          sent ? 'Send the new ranking' : 'Send ranking',
        ),
      ),
      sent
        ? h(
            'p.muted',
            { role: 'status' },
            'Your ranking is sent; it stays secret, and you may change it until everyone has sent theirs.',
          )
        : null,
    );
  }

  function timeline(m, v, names) {
    const open = m.windows[0];
    const phase = m.status !== 'running' ? null : v.phase;
    const mode = v.council ? v.council.mode : 'off';
    // Edition 2: the lobby is sent with the action phase's orders.
    const shown = (
      mode === 'every_round'
        ? PHASES
        : mode === 'after_status' && v.council_convened
          ? [...PHASES.filter((p) => !COUNCIL_PHASES.includes(p)), ...COUNCIL_PHASES]
          : PHASES.filter((p) => !COUNCIL_PHASES.includes(p))
    ).filter((p) => !(v.lobby_in_action && p === 'lobby'));
    const steps = h(
      'ol.cn-steps',
      { 'aria-label': 'Phases of the round' },
      shown.map((p) =>
        h(
          'li',
          { class: p === phase ? 'cn-now' : null, 'aria-current': p === phase ? 'step' : null },
          humanize(p),
        ),
      ),
    );
    let line;
    if (m.status !== 'running') line = 'The game is over.';
    else if (v.phase === 'strategy' && v.strategy_picks === 'ranked' && open)
      line = (open.submitted || []).includes(m.you)
        ? `Your ranking is sent. Waiting for ${
            open.seats
              .filter((s) => !(open.submitted || []).includes(s))
              .map(names.seat)
              .join(', ') || 'no one'
          }.`
        : 'Rank the strategy cards and send your ranking.';
    else if (v.phase === 'strategy')
      line =
        v.picker === m.you
          ? 'Your turn to pick a strategy card.'
          : `${names.seat(v.picker)} is picking a strategy card.`;
    else if (v.phase === 'agenda' && v.council)
      line =
        v.council.speaker === m.you
          ? 'Your turn to choose the agenda.'
          : `${names.seat(v.council.speaker)} is choosing the agenda.`;
    else if (open) {
      const sent = open.submitted || [];
      const waiting = open.seats.filter((s) => !sent.includes(s));
      line = `Orders sent: ${sent.length ? sent.map(names.seat).join(', ') : 'no one yet'}.${waiting.length ? ` Waiting for ${waiting.map(names.seat).join(', ')}.` : ''}`;
    }
    const picks = (v.strategy_cards || [])
      .filter((k) => k.owner !== null && k.owner !== undefined)
      .sort((a, b) => a.initiative - b.initiative);
    return h(
      'section.panel.cn-head',
      { 'aria-labelledby': 'game-h' },
      h(
        'div.panel-head',
        h('h1#game-h', 'Galactic Council'),
        m.spectator ? h('span.tag.tag-watch', 'watching') : null,
      ),
      h(
        'p.cn-round',
        `Round ${v.round} of ${v.last_round} · first to ${v.vp_target} VP · speaker: ${names.seat(speakerNow(v))}`,
      ),
      steps,
      h('p.status', { role: 'status', 'aria-live': 'polite' }, line),
      open ? countdown(open.deadline) : null,
      picks.length
        ? h(
            'p.cn-picks',
            'Picks this round (initiative order): ',
            picks.map((k, i) => [
              i ? ', ' : '',
              h('strong', `${k.initiative} ${k.name}`),
              ` ${names.seat(k.owner)}`,
            ]),
          )
        : null,
    );
  }

  function pickPanel(m, v) {
    const w = m.myWindow;
    if (w && w.mode === 'sealed' && /\.picks$/.test(w.id) && v.phase === 'strategy')
      return rankPanel(m, v, w);
    if (!w || w.mode !== 'open' || v.phase !== 'strategy') return null;
    const legal = c.legalFor(w.id);
    const choices = legal && legal.choices ? legal.choices.map((x) => x.card) : [];
    return h(
      'section.panel.cn-pick',
      { 'aria-labelledby': 'cn-pick-h' },
      h('h2#cn-pick-h', 'Pick your strategy card'),
      h(
        'p.hint',
        'Its number is your initiative: lower acts first in the action phase. You use the card once in your orders.',
      ),
      h(
        'div.cn-cards',
        (v.strategy_cards || []).map((k) =>
          h(
            'button.button.cn-card',
            {
              type: 'button',
              'data-key': `pick-${k.key}`,
              disabled: picking || !choices.includes(k.key),
              onclick: () => pick(w, k.key),
            },
            h('strong', `${k.initiative} ${k.name}`),
            k.owner !== null && k.owner !== undefined
              ? h('span.muted', ` (${k.owner === m.you ? 'yours' : seatName(m.seats, k.owner)})`)
              : null,
          ),
        ),
      ),
    );
  }

  function systemPanel(m, g, names) {
    const sel = composer.state.selected;
    const x = sel ? sectorAt(g, sel) : null;
    if (!x)
      return h(
        'section.panel.cn-system',
        { 'aria-labelledby': 'cn-sys-h' },
        h('h2#cn-sys-h', 'System'),
        h('p.muted', 'Select a sector on the map (click it, or Tab to it and press Enter).'),
      );
    const rows = [];
    if (!x.explored)
      rows.push(
        h(
          'p',
          'Unexplored: no one knows what lies here. Ships that move in explore it for free; you may also pay trade goods to explore it when it borders explored space.',
        ),
      );
    else {
      rows.push(
        h('p', [
          x.kind === 'capital' ? 'The capital. ' : '',
          x.home !== null && x.home !== undefined
            ? x.home === m.you
              ? 'Your home. '
              : `Home of ${names.seat(x.home)}. `
            : '',
          `Explored in round ${x.explored_round}.`,
          x.type && x.type !== 'planets' ? ` ${humanize(x.type)}.` : '',
        ]),
      );
      if (x.marker) rows.push(h('p', 'System marker: ', markerText(x.marker)));
      if ((x.planets || []).length)
        rows.push(
          h(
            'ul.cn-planets',
            x.planets.map((p) =>
              h(
                'li',
                h('strong', p.name),
                ` resources ${p.resources}, influence ${p.influence}${p.trait && p.trait !== 'none' ? `, ${p.trait}` : ''}; `,
                p.owner === null || p.owner === undefined
                  ? 'uncontrolled'
                  : `held by ${p.owner === m.you ? 'you' : names.seat(p.owner)}`,
                p.troops ? `, ${p.troops} trooper${p.troops > 1 ? 's' : ''}` : '',
                p.marker ? ['; marker: ', markerText(p.marker)] : '',
              ),
            ),
          ),
        );
      const stale =
        x.seen_round !== null && x.seen_round !== undefined && !x.live && x.seen_round < v(m).round;
      if (x.seen_round === null || x.seen_round === undefined)
        rows.push(h('p.muted', 'Out of your sensors: you have never seen the units here.'));
      else if (stale)
        rows.push(h('p.cn-stale-note', `As you last saw it in round ${x.seen_round}.`));
      for (const f of x.fleets || [])
        rows.push(
          h(
            'p',
            h('strong', f.seat === m.you ? 'Your fleet: ' : `${names.seat(f.seat)}'s fleet: `),
            unitsText(f.units),
          ),
        );
    }
    return h(
      'section.panel.cn-system',
      { 'aria-labelledby': 'cn-sys-h' },
      h('h2#cn-sys-h', hexLabel(g, sel)),
      rows,
    );
  }

  const v = (m) => m.view || {};

  // The players table's columns after the player. On a narrow screen each
  // player is a card: the cells wrap under the name, each shown with its
  // column's name (data-label, drawn by council.css with an empty
  // alternative text: the column header already names the cell).
  const COLS = [
    'Card',
    'VP',
    'Trade goods',
    'Resources / influence',
    'Tactic / fleet / strategy',
    'Cards',
    'Planets',
    'Technologies',
  ];
  // The roles are the table's own, said again: a table laid out as cards
  // keeps them then in every browser.
  const cell = (i, text, cls) =>
    h('td', { class: cls || null, role: 'cell', 'data-label': COLS[i] }, text);

  function playersPanel(m, vw, names) {
    const open = m.windows[0];
    const sent = (open && open.mode === 'sealed' && open.submitted) || [];
    // Resources and influence of the planets each player holds (planet
    // control in explored sectors is public).
    const worth = {};
    for (const x of (vw.galaxy && vw.galaxy.sectors) || [])
      for (const p of x.planets || [])
        if (p.owner !== null && p.owner !== undefined) {
          const w = (worth[p.owner] = worth[p.owner] || { r: 0, i: 0 });
          w.r += p.resources;
          w.i += p.influence;
        }
    return h(
      'section.panel.cn-players',
      { 'aria-labelledby': 'cn-players-h' },
      h('h2#cn-players-h', 'Players'),
      h(
        'div.cn-table-wrap',
        { tabindex: '0', role: 'region', 'aria-label': 'Players table' },
        h(
          'table.cn-table.cn-players-table',
          { role: 'table' },
          h(
            'thead',
            { role: 'rowgroup' },
            h(
              'tr',
              { role: 'row' },
              ['Player', ...COLS].map((t) => h('th', { scope: 'col', role: 'columnheader' }, t)),
            ),
          ),
          h(
            'tbody',
            { role: 'rowgroup' },
            (vw.players || []).map((p) =>
              h(
                'tr',
                { class: p.seat === m.you ? 'cn-me' : null, role: 'row' },
                h(
                  'th',
                  { scope: 'row', role: 'rowheader' },
                  h('span.cn-swatch', { class: `cn-bg-s${p.seat}`, 'aria-hidden': 'true' }),
                  seatName(m.seats, p.seat),
                  p.seat === m.you ? h('span.tag.tag-you', 'you') : null,
                  sent.includes(p.seat) ? h('span.tag.tag-done', 'sent') : null,
                  h('br'),
                  h('span.muted', p.race_name),
                ),
                cell(0, p.card ? `${names.card(p.card)}${p.card_used ? ' (used)' : ''}` : '—'),
                cell(1, String(p.vp)),
                cell(2, String(p.trade_goods)),
                cell(
                  3,
                  `${worth[p.seat] ? worth[p.seat].r : 0} / ${worth[p.seat] ? worth[p.seat].i : 0}`,
                ),
                cell(4, `${p.tactic} / ${p.fleet} / ${p.strategy}`),
                cell(5, String(p.hand_size)),
                cell(6, String(p.planets)),
                cell(7, p.techs.length ? p.techs.map(humanize).join(', ') : '—', 'cn-wide'),
              ),
            ),
          ),
        ),
      ),
    );
  }

  function objectivesPanel(m, vw, names) {
    const you = vw.you;
    return h(
      'section.panel.cn-objectives',
      { 'aria-labelledby': 'cn-obj-h' },
      h('h2#cn-obj-h', 'Objectives'),
      h(
        'ul.cn-obj',
        (vw.objectives || []).map((o) =>
          h(
            'li',
            h('strong', `${o.name} (${o.vp} VP, stage ${o.stage})`),
            ` ${o.text}`,
            o.scored_by.length
              ? h('span.muted', ` Scored by ${o.scored_by.map(names.seat).join(', ')}.`)
              : null,
          ),
        ),
      ),
      you
        ? [
            h('h3', 'Your secret objectives'),
            you.secret_objectives.length
              ? h(
                  'ul.cn-obj',
                  you.secret_objectives.map((o) =>
                    h(
                      'li',
                      h('strong', o.name),
                      ` ${o.text}`,
                      o.scored ? h('span.tag.tag-done', 'scored') : null,
                    ),
                  ),
                )
              : h('p.muted', 'None.'),
            h('h3', 'Your action cards'),
            you.hand.length
              ? h(
                  'ul.cn-obj',
                  you.hand.map((a) =>
                    h(
                      'li',
                      h('strong', `${a.name}${a.count > 1 ? ` ×${a.count}` : ''}`),
                      ` ${a.text}`,
                    ),
                  ),
                )
              : h('p.muted', 'None yet (one is drawn each status phase).'),
          ]
        : null,
    );
  }

  function howTo() {
    return h(
      'details.panel.cn-help',
      h('summary', h('h2', 'How to play')),
      h(
        'ol',
        h(
          'li',
          'Each round, rank the strategy cards (everyone at once, in secret; from the speaker clockwise each player gets the highest card on their list still free), or, in a game of sequential picks, pick one in turn. Its number is your initiative: lower numbers act first.',
        ),
        h(
          'li',
          'Then give your orders, all at once and in secret: select a sector on the map, then move a fleet, produce, or pay to explore. Each order is saved as you add it.',
        ),
        h(
          'li',
          'A fleet may move into the unknown: "inspect the marker; if it is hostile, retreat, otherwise land on every planet". The condition is decided when the orders resolve.',
        ),
        h(
          'li',
          'Press "Send orders" when you are done. When everyone has sent (or time runs out) the orders resolve in initiative order.',
        ),
        h(
          'li',
          'In the status phase objectives are scored, cards drawn and command tokens returned. Reach the VP target to win.',
        ),
      ),
      h(
        'p.hint',
        'On the map: ? is unexplored or a hidden marker, ! a hostile marker you know of, ✓ a friendly one; the chips are fleets (ship counts), filled circles planets in their owner\'s colour; "seen rN" marks what you last saw in round N.',
      ),
    );
  }

  return {
    update(root, m) {
      const vw = v(m);
      const g = vw.galaxy || { sectors: [] };
      const cards = Object.fromEntries((vw.strategy_cards || []).map((k) => [k.key, k.name]));
      const agendas = Object.fromEntries(
        [
          vw.council && vw.council.agenda,
          ...((vw.council && vw.council.laws) || []),
          vw.council && vw.council.last && vw.council.last.agenda,
        ]
          .filter(Boolean)
          .map((a) => [a.key, a.name]),
      );
      const actions = Object.fromEntries(
        ((vw.you && vw.you.hand) || []).map((a) => [a.key, a.name]),
      );
      const names = {
        seat: (i) => (i === m.you ? 'you' : seatName(m.seats, i)),
        card: (k) => cards[k] || humanize(k),
        agenda: (k) => agendas[k] || humanize(k),
        action: (k) => actions[k] || humanize(k),
      };
      const me = (vw.players || []).find((p) => p.seat === m.you) || null;
      const tokens = new Set(((vw.you && vw.you.tokens) || []).map((t) => `${t[0]},${t[1]}`));
      ctx = {
        galaxy: g,
        you: m.you,
        me,
        yours: vw.you || {},
        cardName: names.card,
        sending: false,
      };
      const composed = composer.panel(m, ctx);
      const councilPanel = council.panel(m, {
        galaxy: g,
        you: m.you,
        me,
        names: { seat: (i) => seatName(m.seats, i) },
      });
      const d = composer.state.draft;
      const targets = new Set();
      if (d && d.kind === 'move' && d.to) targets.add(`${d.to[0]},${d.to[1]}`);
      map.update(g, {
        you: m.you,
        round: vw.round,
        selected: d && d.kind === 'move' ? d.from : composer.state.selected,
        targets,
        tokens,
        names: { seat: (i) => seatName(m.seats, i) },
      });
      const lines = m.log
        .map((e) => ({
          seq: e.seq,
          text: describeEntry(e, m, names),
          kind: e.seat !== null && e.seat !== undefined ? 'private' : null,
        }))
        .filter((l) => l.text);
      const over = m.status !== 'running';
      render(
        root,
        h(
          'div.cn-layout',
          timeline(m, vw, names),
          over
            ? h(
                'section.panel.cn-over',
                h('h2', resultText(m, vw)),
                h(
                  'p.result-actions',
                  h('a.button', { href: c.ctx.href('/') }, 'Back to the lobbies'),
                ),
              )
            : null,
          h(
            'div.cn-main',
            h(
              'section.panel.cn-map-panel',
              { 'aria-labelledby': 'cn-map-h' },
              h('h2#cn-map-h', 'Galaxy'),
              map.el,
            ),
            COUNCIL_PHASES.includes(vw.phase)
              ? h('div.cn-side', councilPanel, pickPanel(m, vw), composed, systemPanel(m, g, names))
              : vw.lobby_in_action && vw.phase === 'action'
                ? h(
                    'div.cn-side',
                    pickPanel(m, vw),
                    composed,
                    councilPanel,
                    systemPanel(m, g, names),
                  )
                : h(
                    'div.cn-side',
                    pickPanel(m, vw),
                    composed,
                    systemPanel(m, g, names),
                    councilPanel,
                  ),
          ),
          playersPanel(m, vw, names),
          h('div.cn-bottom', objectivesPanel(m, vw, names), logPanel(lines)),
          howTo(),
        ),
      );
    },
  };
}

function markerText(mk) {
  if (mk === 'hidden') return 'hidden (not inspected)';
  return h('span', h('strong', mk.name), mk.hostile ? ' (hostile)' : ' (friendly)', ` ${mk.text}`);
}

function resultText(m, v) {
  const best = Math.max(...(v.players || []).map((p) => p.vp));
  const top = (v.players || [])
    .filter((p) => p.vp === best)
    .map((p) => (p.seat === m.you ? 'You' : seatName(m.seats, p.seat)));
  return `Game over. Most victory points (${best}): ${top.join(', ')}.`;
}
