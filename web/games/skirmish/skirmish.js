// skirmish.js - the Skirmish table. Before the battle: the sealed squad
// builder and deployment (skirmishmuster.js). In the battle: the field
// (skirmishfield.js) where selecting one of your creatures highlights what
// GET /legal allows it (squares to move to, creatures to attack or target)
// and a second click declares it (POST /plays); the selected creature's
// card and every declaration it has as buttons; the stack top first with
// each item's source, targets and text, and the conditional answers
// (parries, counterspells) next to the item they name; who holds priority
// with Pass and "Pass until end of turn" (a pass with a response rule); the
// last dice; hints; the log in plain words (skirmishtext.js).

import { h, render, toast, announce } from '../../ui.js';
import { api } from '../../api.js';
import { seatName, countdown, logPanel } from '../../gamekit.js';
import { fieldGrid, fullCard, unitSpeech } from './skirmishfield.js';
import { newMusterState, musterPanel, deployPanel } from './skirmishmuster.js';
import {
  STEP,
  describe,
  logKind,
  unitLabel,
  choiceText,
  targetsText,
  hintText,
  howToPlay,
} from './skirmishtext.js';

const FACE = ['⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];
const STRENGTH = (roll) => (roll <= 2 ? 'weak' : roll <= 4 ? 'medium' : 'strong');

export function skirmishRenderer(c) {
  const st = newMusterState();
  let sel = null; // selected unit id
  let selAbility = null; // 'attack', an ability index, or null (everything)
  let selWindow = null;
  let busy = false;

  // ------------------------------------------------------------ model --

  function myChoices(m) {
    const w = m.myWindow;
    if (!w || w.mode !== 'open') return null;
    const legal = c.legalFor(w.id);
    return legal && Array.isArray(legal.choices) ? legal.choices : null;
  }

  function forUnit(choices, unit) {
    return (choices || []).filter((ch) => ch.action !== 'pass' && ch.unit === unit);
  }

  function narrow(list) {
    if (selAbility === null) return list;
    return list.filter((ch) =>
      selAbility === 'attack'
        ? ch.action === 'attack'
        : ch.action === 'ability' && ch.ability === selAbility,
    );
  }

  // ---------------------------------------------------------- actions --

  async function play(m, body, what) {
    const w = m.myWindow;
    if (!w || busy) return;
    busy = true;
    c.draw();
    try {
      await c.play({ window: w.id, ...body });
      sel = null;
      selAbility = null;
      if (what) announce(what);
    } catch (e) {
      toast(e.detail || e.message, 'error');
    } finally {
      busy = false;
      c.draw();
    }
  }

  async function stopRule() {
    try {
      await api.setResponseRule(c.id, 'never');
      announce('Auto-pass stopped');
    } catch (e) {
      toast(e.detail || e.message, 'error');
    }
  }

  async function setHold(on) {
    try {
      await api.setHold(c.id, on);
      announce(on ? 'You hold priority' : 'Priority passes with your declarations');
    } catch (e) {
      toast(e.detail || e.message, 'error');
    }
  }

  function clickSquare(m, choices, sq, u) {
    if (sel !== null) {
      const mine = narrow(forUnit(choices, sel));
      const hits = mine.filter(
        (ch) => (ch.action === 'move' && ch.to === sq) || (u && ch.target === u.id),
      );
      if (hits.length) {
        const pick = hits.find((ch) => ch.action === 'attack') || hits[0];
        return play(m, pick, choiceText(m.view, pick));
      }
    }
    if (!u) return;
    sel = sel === u.id ? null : u.id;
    selAbility = null;
    announce(sel === null ? 'Nothing selected' : `${unitLabel(m.view, u.id)} selected`);
    c.draw();
  }

  // ------------------------------------------------------------- parts --

  function squareCell(m, choices) {
    const mine = sel !== null ? narrow(forUnit(choices, sel)) : [];
    const moves = new Set(mine.filter((ch) => ch.action === 'move').map((ch) => ch.to));
    const targets = new Set(mine.filter((ch) => ch.target !== undefined).map((ch) => ch.target));
    const active = new Set(
      (choices || []).filter((ch) => ch.action !== 'pass').map((ch) => ch.unit),
    );
    return (sq, u) => {
      const cls = [];
      let mark = null;
      let label = null;
      if (u && u.id === sel) cls.push('selected');
      if (u && active.has(u.id)) {
        cls.push('can-act');
        mark = '●';
      }
      if (moves.has(sq)) {
        cls.push('can-move');
        label = `empty, move ${unitLabel(m.view, sel)} here`;
      }
      if (u && targets.has(u.id)) {
        cls.push('can-target');
        label = `${unitSpeech(u, (m.view.cards || {})[u.key], m.you, m.seats)}; target of ${unitLabel(m.view, sel)}`;
      }
      if (
        u &&
        u.reserved &&
        (u.reserved.close || u.reserved.move || u.reserved.tokens || u.reserved.life)
      )
        cls.push('reserved');
      return {
        cls: cls.join(' '),
        disabled: busy || (!u && !moves.has(sq)),
        onclick: () => clickSquare(m, choices, sq, u),
        label: label && `${label}`,
        mark,
        seats: m.seats,
        pressed: u ? u.id === sel : undefined,
      };
    };
  }

  function detailPanel(m, choices) {
    const v = m.view;
    const u = sel !== null ? v.units[sel] : null;
    if (!u)
      return h(
        'section.panel.sk-detail',
        { 'aria-labelledby': 'sk-detail-h' },
        h('h2#sk-detail-h', 'Creature'),
        h('p.muted', 'Select a creature on the field to see its card and what it can do.'),
      );
    const d = (v.cards || {})[u.key] || null;
    const list = forUnit(choices, u.id);
    const kinds = [];
    if (list.some((ch) => ch.action === 'attack')) kinds.push(['attack', 'Attack']);
    for (const ch of list)
      if (ch.action === 'ability' && !kinds.some(([k]) => k === ch.ability))
        kinds.push([ch.ability, `Ability ${ch.ability + 1}`]);
    return h(
      'section.panel.sk-detail',
      { 'aria-labelledby': 'sk-detail-h' },
      h(
        'div.panel-head',
        h('h2#sk-detail-h', u.name),
        h(
          'button.link',
          {
            type: 'button',
            'data-key': 'deselect',
            onclick: () => ((sel = null), (selAbility = null), c.draw()),
          },
          'Deselect',
        ),
      ),
      fullCard(d, u, m.seats, m.you),
      list.length
        ? h(
            'div.sk-actions',
            h('h3', 'It can now'),
            kinds.length > 1
              ? h(
                  'div.sk-filter',
                  { role: 'group', 'aria-label': 'Show on the field' },
                  h(
                    'button',
                    {
                      type: 'button',
                      'aria-pressed': String(selAbility === null),
                      onclick: () => ((selAbility = null), c.draw()),
                    },
                    'All',
                  ),
                  kinds.map(([k, t]) =>
                    h(
                      'button',
                      {
                        type: 'button',
                        'aria-pressed': String(selAbility === k),
                        onclick: () => ((selAbility = k), c.draw()),
                      },
                      t,
                    ),
                  ),
                )
              : null,
            h(
              'ul.sk-choices',
              narrow(list).map((ch, i) =>
                h(
                  'li',
                  h(
                    'button',
                    {
                      type: 'button',
                      'data-key': `choice-${i}`,
                      class: `sk-choice ch-${ch.action}`,
                      disabled: busy,
                      onclick: () => play(m, ch, choiceText(v, ch)),
                    },
                    choiceText(v, ch),
                  ),
                ),
              ),
            ),
          )
        : u.owner === m.you && choices
          ? h('p.muted', 'It has nothing it can declare now.')
          : null,
    );
  }

  function stackPanel(m, choices) {
    const v = m.view;
    const items = [...(v.stack || [])].reverse();
    const answers = (choices || []).filter((ch) => ch.item !== undefined);
    return h(
      'section.panel.sk-stack',
      { 'aria-labelledby': 'sk-stack-h' },
      h('h2#sk-stack-h', 'Stack', h('span.muted', ' (top first)')),
      items.length
        ? h(
            'ol.sk-stack-list',
            items.map((it, i) => {
              const p = it.payload || {};
              const src = p.unit !== undefined ? unitLabel(v, p.unit) : it.source;
              return h(
                'li.sk-item',
                { class: `seat-c${it.owner}${i === 0 ? ' top' : ''}`, dataset: { item: it.id } },
                h(
                  'div.sk-item-head',
                  h('span.sk-item-id', `#${it.id}`),
                  h('strong', src),
                  h('span.tag', p.kind || 'item'),
                  i === 0 ? h('span.tag.tag-live', 'resolves next') : null,
                ),
                h('p.sk-item-text', p.text || ''),
                h(
                  'p.sk-item-targets.muted',
                  `${seatName(m.seats, it.owner)} · ${targetsText(v, it.targets)}`,
                ),
                answers
                  .filter((ch) => ch.item === it.id)
                  .map((ch) =>
                    h(
                      'button.sk-answer',
                      {
                        type: 'button',
                        disabled: busy,
                        onclick: () => play(m, ch, choiceText(v, ch)),
                      },
                      `${unitLabel(v, ch.unit)}: ${choiceText(v, ch)}`,
                    ),
                  ),
              );
            }),
          )
        : h('p.muted', 'Empty.'),
    );
  }

  function priorityPanel(m, choices) {
    const v = m.view;
    const p = v.priority || {};
    const w = m.myWindow;
    const holding = !!(w && w.mode === 'open');
    const step = p.step;
    const rule = p.my_rule;
    return h(
      'section.panel.sk-priority',
      { 'aria-labelledby': 'sk-prio-h' },
      h('h2#sk-prio-h', 'Priority'),
      h(
        'p',
        h('strong', STEP[step] || step || '—'),
        v.active !== null && v.active !== undefined
          ? ` · ${seatName(m.seats, v.active)}’s turn`
          : '',
      ),
      h(
        'p',
        { 'data-testid': 'sk-holder' },
        p.holder === null || p.holder === undefined
          ? 'Nobody holds priority.'
          : p.holder === m.you
            ? h('strong', 'You hold priority.')
            : `${seatName(m.seats, p.holder)} holds priority.`,
      ),
      holding
        ? h(
            'div.sk-pass',
            h(
              'button.primary',
              {
                type: 'button',
                'data-key': 'pass',
                'data-testid': 'sk-pass',
                disabled: busy || !choices,
                onclick: () => play(m, { action: 'pass' }, 'Passed'),
              },
              step === 'choice' ? 'Pass: hand the turn over' : 'Pass',
            ),
            h(
              'button',
              {
                type: 'button',
                'data-key': 'pass-eot',
                disabled: busy || !choices,
                onclick: () =>
                  play(
                    m,
                    { action: 'pass', until: 'end_of_turn' },
                    'Passing until the end of the turn',
                  ),
              },
              'Pass until end of turn',
            ),
          )
        : null,
      typeof p.hold === 'boolean'
        ? h(
            'label.sk-hold',
            h('input', {
              type: 'checkbox',
              checked: p.hold,
              'data-key': 'hold',
              'data-testid': 'sk-hold',
              onchange: (e) => setHold(e.target.checked),
            }),
            ' Hold priority',
            h(
              'span.muted',
              ' (stop after your own declarations and on an empty stack, to act there)',
            ),
          )
        : null,
      rule
        ? h(
            'p.sk-rule',
            `Auto-pass is on (until ${rule.until.replace(/_/g, ' ')}). `,
            h('button.link', { type: 'button', onclick: stopRule }, 'Stop auto-passing'),
          )
        : null,
      h(
        'p.sk-hint',
        { role: 'status', 'data-testid': 'sk-hint' },
        hintText(m, { holding, choices: choices || [], step }),
      ),
    );
  }

  function dicePanel(m) {
    const v = m.view;
    const d = v.dice;
    if (!d) return null;
    const who = [d.attacker, d.target];
    return h(
      'section.panel.sk-dice',
      { 'aria-labelledby': 'sk-dice-h' },
      h('h2#sk-dice-h', 'Last attack'),
      h(
        'ul',
        [0, 1].map((i) =>
          d.rolls[i] > 0
            ? h(
                'li',
                h('span.sk-die', { 'aria-hidden': 'true' }, FACE[d.rolls[i] - 1]),
                ` ${unitLabel(v, who[i])} ${i ? 'struck back' : 'attacked'}: rolled ${d.rolls[i]}, ${STRENGTH(d.rolls[i])} strike for ${d.strikes[i]}`,
              )
            : h('li', `${unitLabel(v, who[i])} did not strike back.`),
        ),
      ),
    );
  }

  function header(m) {
    const v = m.view;
    const squads = v.squads || [];
    const p = v.priority || {};
    return h(
      'p.players',
      [0, 1].map((s) => {
        const q = squads.find((x) => x.seat === s);
        return h(
          'span.seat-badge',
          { class: `seat-c${s}${v.active === s && v.phase === 'play' ? ' to-move' : ''}` },
          h('span.seat-swatch', { 'aria-hidden': 'true' }),
          seatName(m.seats, s),
          s === m.you ? h('span.tag.tag-you', 'you') : null,
          q ? h('span.muted', ` ${q.standing}/${q.creatures} standing`) : null,
          p.holder === s && v.phase === 'play' ? h('span.tag.tag-live', 'priority') : null,
        );
      }),
    );
  }

  function statusText(m) {
    const v = m.view;
    if (m.status === 'aborted') return 'The game was aborted.';
    const r = v.result || m.result;
    if (v.phase === 'over' || m.status === 'finished') {
      if (!r) return 'The game is over.';
      const sc = r.scores ? ` (scores ${r.scores.join(' : ')})` : '';
      if (r.draw || !(r.winners || []).length)
        return `A draw after ${r.turns || v.turn} turns${sc}.`;
      const wnr = r.winners[0];
      return `${wnr === m.you ? 'You won' : `${seatName(m.seats, wnr)} won`} after ${r.turns || v.turn} turns${sc}.`;
    }
    if (v.phase === 'muster') return 'Muster: choose your squad.';
    if (v.phase === 'deploy') return 'Deployment: place your squad.';
    return `Turn ${v.turn} of ${v.turn_limit}.`;
  }

  // ----------------------------------------------------------- render --

  return {
    update(root, m) {
      const v = m.view || {};
      const w = m.myWindow;
      if ((w ? w.id : null) !== selWindow) {
        selWindow = w ? w.id : null;
        selAbility = null;
      }
      if (sel !== null && (!v.units || !v.units[sel] || !v.units[sel].square)) sel = null;
      const choices = myChoices(m);
      const lines = m.log
        .map((e) => ({ seq: e.seq, text: describe(e, m), kind: logKind(e) }))
        .filter((l) => l.text);
      const open = m.windows[0];
      const head = h(
        'section.panel.sk-head',
        { 'aria-labelledby': 'game-h' },
        h(
          'div.panel-head',
          h('h1#game-h', 'Skirmish'),
          m.spectator ? h('span.tag.tag-watch', 'watching') : null,
        ),
        header(m),
        h(
          'p.status',
          { role: 'status', 'aria-live': 'polite', 'data-testid': 'sk-status' },
          statusText(m),
        ),
        open && open.deadline ? countdown(open.deadline) : null,
        m.status !== 'running'
          ? h('p.result-actions', h('a.button', { href: c.ctx.href('/') }, 'Back to the lobbies'))
          : null,
      );
      if (v.phase === 'muster' || v.phase === 'deploy') {
        const body = v.phase === 'muster' ? musterPanel(c, m, st) : deployPanel(c, m, st);
        render(
          root,
          h(
            'div.sk-layout.sk-pre',
            h(
              'div.sk-main',
              head,
              h(
                'section.panel.sk-setup',
                { 'aria-label': v.phase === 'muster' ? 'Muster' : 'Deployment' },
                body,
              ),
            ),
            h('div.sk-side', howToPlay(), logPanel(lines)),
          ),
        );
        return;
      }
      const field = fieldGrid(v, m.you, squareCell(m, choices), { caption: 'Field' });
      render(
        root,
        h(
          'div.sk-layout.sk-play',
          {
            'data-testid': 'sk-table',
            dataset: { window: w ? w.id : '', ready: choices ? '1' : '0' },
          },
          // The dock (priority with Pass, the stack, the dice) stays in
          // view beside the field on a wide screen; on a narrow one it
          // comes right after the head, the stack by the Pass button.
          h(
            'div.sk-main',
            head,
            h('section.panel.sk-board', { 'aria-label': 'Field' }, field),
            detailPanel(m, choices),
            howToPlay(),
            logPanel(lines),
          ),
          h(
            'div.sk-dock',
            { 'data-testid': 'sk-dock' },
            v.phase === 'play' ? priorityPanel(m, choices) : null,
            stackPanel(m, choices),
            dicePanel(m),
          ),
        ),
      );
    },
  };
}
