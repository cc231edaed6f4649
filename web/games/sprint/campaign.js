// campaign.js - the Galactic Sprint solitaire campaign screen: progress from
// GET /api/v1/me ("campaign": status, games, conditions met and the options
// of the next game), and starting the next campaign game (a one-seat lobby
// with those options, started at once).

import { api, session } from '../../api.js';
import { h, render, toast } from '../../ui.js';

const CONDITIONS = [
  { id: 'magnate', title: 'Magnate', need: '65 or more VP chips' },
  {
    id: 'warlord',
    title: 'Warlord',
    need: '4 or more military worlds in your empire, and 45+ VP chips',
  },
  { id: 'tycoon', title: 'Tycoon', need: 'empire income of 9 or more, and 45+ VP chips' },
  {
    id: 'pathfinder',
    title: 'Pathfinder',
    need: 'worlds of all four colours azure, jade, amber and violet, and 45+ VP chips',
  },
];

function titleOf(id) {
  const c = CONDITIONS.find((x) => x.id === id);
  return c ? c.title : id;
}

const STATUS = {
  none: 'No campaign yet.',
  active: 'Campaign in progress.',
  won: 'Campaign won: all four conditions met!',
  lost: 'The last campaign was lost: a game met no new condition.',
};

export function campaignScreen(main, ctx) {
  document.title = 'Campaign – Conclave';
  const root = h('section.panel.campaign', { 'aria-labelledby': 'camp-h' });
  render(main, root);
  let destroyed = false;
  let busy = false;

  async function startGame(options) {
    if (busy) return;
    busy = true;
    try {
      const lobby = await api.createLobby({ ruleset: 'sprint', seats: 1, options });
      const g = await api.start(lobby.id);
      ctx.navigate(`/game/${g.game}`);
    } catch (e) {
      toast(e.detail || e.message, 'error');
    } finally {
      busy = false;
    }
  }

  // The last game newly met several conditions: it counts for the first
  // unless the player picks another (POST /me/records/campaign/choice).
  function choicePanel(camp) {
    const last = camp.games[camp.games.length - 1];
    return h(
      'section.campaign-choice',
      { 'aria-labelledby': 'choice-h', 'data-testid': 'campaign-choice' },
      h('h2#choice-h', 'Which condition should your last game count for?'),
      h(
        'p',
        `It met ${camp.choice.map(titleOf).join(' and ')}; one game checks off one condition. It counts for ${titleOf(last.checked)} unless you pick another before your next campaign game.`,
      ),
      h(
        'div.row',
        camp.choice.map((id) =>
          h(
            'button',
            {
              type: 'button',
              class: id === last.checked ? 'primary' : null,
              'aria-pressed': id === last.checked ? 'true' : 'false',
              'data-key': `choose-${id}`,
              onclick: async () => {
                if (busy) return;
                busy = true;
                try {
                  await api.chooseInRecord('campaign', { condition: id });
                  toast(`Your last game now counts for ${titleOf(id)}.`);
                } catch (e) {
                  toast(e.detail || e.message, 'error');
                } finally {
                  busy = false;
                }
                draw();
              },
            },
            `Count it for ${titleOf(id)}`,
          ),
        ),
      ),
    );
  }

  async function draw() {
    if (!session.token) {
      render(
        root,
        h('h1#camp-h', 'Solitaire campaign'),
        h('p', h('a', { href: ctx.href('/') }, 'Pick a name'), ' to play the campaign.'),
      );
      return;
    }
    const me = await ctx.refreshMe();
    if (destroyed) return;
    const camp = me && me.campaign;
    if (!camp) {
      render(
        root,
        h('h1#camp-h', 'Solitaire campaign'),
        h('p.muted', 'The campaign cannot be loaded right now.'),
      );
      return;
    }
    // /me's campaign: {status, met: [condition ids], games: [{conditions_met,
    // checked, chips}], next_options}
    const met = Array.isArray(camp.met) ? camp.met : [];
    const played = Array.isArray(camp.games) ? camp.games : [];
    const nplayed = played.length;
    const active = camp.status === 'active';
    const next = (camp.next_options && camp.next_options.campaign_conditions_met) || [];
    const running = (me.games || []).filter(
      (g) => g.ruleset === 'sprint' && g.status === 'running',
    );
    render(
      root,
      h('h1#camp-h', 'Galactic Sprint: solitaire campaign'),
      h(
        'p',
        'Four solitaire games in a row. Each game must meet one victory condition you have not met before; a game that meets none loses the campaign.',
      ),
      h(
        'p.campaign-status',
        { 'data-testid': 'campaign-status', 'data-status': camp.status },
        h('strong', STATUS[camp.status] || camp.status),
        active
          ? ` Game ${nplayed + 1} of 4 is next.`
          : nplayed
            ? ` ${nplayed} game${nplayed === 1 ? '' : 's'} played.`
            : '',
      ),
      h(
        'ol.campaign-track',
        { 'aria-label': 'Conditions' },
        CONDITIONS.map((cnd) => {
          const done = met.includes(cnd.id);
          return h(
            'li.cond',
            { class: done ? 'met' : 'open', 'data-condition': cnd.id },
            h('span.cond-mark', { 'aria-hidden': 'true' }, done ? '✓' : '○'),
            h('span.cond-body', h('strong', cnd.title), h('span.muted', cnd.need)),
            h('span.sr-only', done ? ' (met)' : ' (not met yet)'),
          );
        }),
      ),
      Array.isArray(camp.choice) && camp.choice.length > 1 ? choicePanel(camp) : null,
      nplayed
        ? h(
            'div',
            h('h2', 'Games of this campaign'),
            h(
              'ol.list.campaign-games',
              { 'data-testid': 'campaign-games' },
              played.map((g, i) =>
                h(
                  'li.list-row',
                  h('span', `Game ${i + 1}: ${g.chips} VP chips`),
                  h(
                    'span',
                    g.checked ? `counted for ${titleOf(g.checked)}` : 'met no new condition',
                  ),
                ),
              ),
            ),
          )
        : null,
      h(
        'div.row',
        h(
          'button.primary',
          {
            type: 'button',
            'data-key': 'camp-next',
            onclick: () => startGame({ campaign_conditions_met: next }),
          },
          active ? `Play campaign game ${nplayed + 1}` : 'Start a new campaign',
        ),
        h(
          'button',
          { type: 'button', 'data-key': 'camp-single', onclick: () => startGame(undefined) },
          'Single solitaire game',
        ),
      ),
      running.length
        ? h(
            'div',
            h('h2', 'Sprint games in progress'),
            h(
              'ul.list',
              running.map((g) =>
                h(
                  'li.list-row',
                  h('span', `Game ${g.id}`),
                  h('a.button', { href: ctx.href(`/game/${g.id}`) }, 'Resume'),
                ),
              ),
            ),
          )
        : null,
    );
  }

  draw();
  return {
    destroy() {
      destroyed = true;
    },
  };
}
