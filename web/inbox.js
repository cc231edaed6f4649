// inbox.js - the "your move" inbox at the top of every page: the windows of
// the signed-in player's games that wait on them (GET /api/v1/me/turns's
// list, kept live by the WebSocket's "turns" messages), each a link to its
// game with its deadline, and their count in the tab title ("(2) ...").

import { h, render, duration, plural } from './ui.js';
import { session } from './api.js';

const COUNT = /^\(\d+\) /;
let count = 0;

// The tab title with the count in front (screens set their own titles).
function applyTitle() {
  const base = document.title.replace(COUNT, '');
  const want = count ? `(${count}) ${base}` : base;
  if (document.title !== want) document.title = want;
}

function dueText(deadline) {
  if (!deadline) return 'no deadline';
  const left = (Date.parse(deadline) - Date.now()) / 1000;
  return left > 0 ? `due in ${duration(left)}` : 'due now';
}

// Start the inbox in el for ctx (app.js's context). Returns nothing; it
// lives as long as the page.
export function startInbox(el, ctx) {
  let list = { count: 0, turns: [] };
  const draw = async () => {
    count = session.token ? list.count : 0;
    applyTitle();
    el.hidden = count === 0;
    if (!count) {
      render(el);
      return;
    }
    const items = [];
    for (const t of list.turns) {
      const title = await ctx.rulesetTitle(t.ruleset);
      items.push(
        h(
          'li.inbox-item',
          { 'data-game-id': t.game },
          h(
            'a',
            { href: ctx.href(t.link) },
            h('strong', title),
            h('span.muted', ` · ${t.label || t.window}`),
          ),
          h('span.inbox-due', { title: t.deadline || '' }, dueText(t.deadline)),
        ),
      );
    }
    render(
      el,
      h(
        'h2.inbox-title',
        'Your move',
        h('span.inbox-count', { 'data-testid': 'inbox-count' }, String(list.count)),
      ),
      h(
        'ul.inbox-list',
        { 'aria-label': `${plural(list.count, 'game window')} waiting on you` },
        ...items,
      ),
    );
  };
  new MutationObserver(applyTitle).observe(document.querySelector('title'), { childList: true });
  ctx.live.watchTurns((msg) => {
    list = { count: msg.count, turns: msg.turns };
    draw();
  });
  ctx.live.onStatus((status) => {
    if (status === 'open' && !session.token && list.count) {
      list = { count: 0, turns: [] };
      draw();
    }
  });
  setInterval(() => list.count && draw(), 30000); // "due in" moves on
}
