// legend.js - Galactic Sprint's legend of icons in "How to play" (web/howto.js
// shows it below the rules).

import { h } from '../../ui.js';
import { icon } from './cards.js';

// The icons of Galactic Sprint's cards and empires, with what they mean.
export function sprintLegend() {
  const row = (sym, term, text) =>
    h('li.legend-row', h('span.legend-sym', sym), h('span', h('strong', term), ` – ${text}`));
  return h(
    'section.howto-part',
    { 'aria-labelledby': 'howto-legend-h' },
    h('h3#howto-legend-h', 'Legend'),
    h(
      'ul.legend',
      row(
        h('span.badge.cost', { 'aria-hidden': 'true' }, '3'),
        'Cost',
        'cards you discard from your hand to place it.',
      ),
      row(
        h('span.badge.defence', { 'aria-hidden': 'true' }, '3'),
        'Defence',
        'a military world: your military must be at least this to conquer it.',
      ),
      row(
        h('span.badge.vp', { 'aria-hidden': 'true' }, '2'),
        'VP',
        'victory points the card adds to your empire VP.',
      ),
      row(icon('income', null, 'income'), 'Income', 'cards you draw at the end of each round.'),
      row(icon('military', null, 'military'), 'Military', 'conquers military worlds.'),
      row(icon('explore', null, 'explore'), 'Explore', 'extra cards seen when you explore.'),
      row(
        icon('hand', null, 'cards in hand'),
        'Hand',
        'cards in a player\u2019s hand (only the number is public).',
      ),
    ),
  );
}
