// howto.js - the "How to play" panel: a button (in the lobby, the create
// form and every table) that opens a dialog with the ruleset's rules in
// short (the howto text of its folder in games/, loaded through the
// registry when the dialog first opens), a
// legend of the icons where the table uses them (Galactic Sprint's), and
// the first-game guide. Escape or "Close" shuts it and focus goes back to
// the button.

import { h } from './ui.js';
import { loadGame } from './games/registry.js';

function listPart(id, title, items) {
  return h(
    'section.howto-part',
    { 'aria-labelledby': id },
    h('h3', { id }, title),
    h(
      'ul.howto-list',
      items.map((t) => h('li', t)),
    ),
  );
}

function body(game) {
  const t = game && game.howto;
  if (!t) return [h('p', 'The rules of this game are not written for the page yet.')];
  return [
    h('p.howto-aim', t.aim),
    t.sections.map((s, i) => listPart(`howto-s${i}`, s.title, s.items)),
    t.guide ? listPart('howto-guide', t.guide.title, t.guide.items) : null,
    game.legend ? game.legend() : null,
  ];
}

// A "How to play" button for rulesetId (title: the game's name). The
// dialog is made when the button is clicked and removed when it closes.
export function howtoButton(rulesetId, title, { className = '' } = {}) {
  const button = h(
    'button.howto-open',
    {
      type: 'button',
      class: className,
      'data-key': `howto-${rulesetId}`,
      'data-testid': 'howto-open',
      'aria-haspopup': 'dialog',
      onclick: () => {
        // One dialog per click, even when the game's files take a while.
        if (button.dataset.opening) return;
        button.dataset.opening = '1';
        openHowto(rulesetId, title, button).finally(() => delete button.dataset.opening);
      },
    },
    'How to play',
  );
  return button;
}

export async function openHowto(rulesetId, title, opener) {
  const game = await loadGame(rulesetId);
  const close = h(
    'button',
    { type: 'button', 'data-testid': 'howto-close', onclick: () => dlg.close() },
    'Close',
  );
  const dlg = h(
    'dialog.howto',
    { 'aria-labelledby': 'howto-h', 'data-testid': 'howto' },
    h('div.panel-head', h('h2#howto-h', `How to play ${title || ''}`.trim()), close),
    h('div.howto-body', body(game)),
  );
  dlg.addEventListener('close', () => {
    dlg.remove();
    if (opener && opener.isConnected) opener.focus();
  });
  dlg.addEventListener('click', (ev) => ev.target === dlg && dlg.close()); // a click on the backdrop
  document.body.append(dlg);
  dlg.showModal();
  close.focus();
  return dlg;
}
