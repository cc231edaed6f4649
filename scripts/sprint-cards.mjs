#!/usr/bin/env node
// sprint-cards.mjs - regenerates the card list of docs/games/sprint.md (the
// part between "<!-- cards:begin -->" and "<!-- cards:end -->") from
// engine/rules/sprint/cards.json. Plain node, no dependencies.
//
//   node scripts/sprint-cards.mjs           rewrite the section in place
//   node scripts/sprint-cards.mjs --check   exit 1 if the section is stale
//
// The ability texts follow the same wording as sprint_design_text in
// engine/rules/sprint/sprint_cards.c (what clients see); keep them in step.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cardsPath = join(root, 'engine/rules/sprint/cards.json');
const docPath = join(root, 'docs/games/sprint.md');
const BEGIN = '<!-- cards:begin -->';
const END = '<!-- cards:end -->';

const one = {
  card: 'card', development: 'development', world: 'world',
  military_world: 'military world', civil_world: 'non-military world',
  rebel_world: 'rebel world', alien_world: 'alien world',
  grey_world: 'grey world', azure_world: 'azure world', jade_world: 'jade world',
  amber_world: 'amber world', violet_world: 'violet world',
  military_icon: 'military icon', explore_icon: 'explore icon',
  income_icon: 'income icon',
};
const many = Object.fromEntries(Object.entries(one).map(([k, v]) => [
  k, v === 'card' ? 'cards' : v.replace(/(world|development|icon)$/, '$1s'),
]));

function abilityText(a) {
  const amount = a.amount ?? 0;
  switch (a.type) {
    case 'discount':
      return `Your ${many[a.what]} cost ${amount} less to place.`;
    case 'military_vs':
      return `+${amount} military against ${many[a.what]} only.`;
    case 'pay_military':
      return 'You may pay for a military world instead of conquering it, at ' +
        'its defence minus 1 (never an alien world).';
    case 'convoy':
      return 'When you place this world, you may also place a second ' +
        `${a.what === 'world' ? 'world' : one[a.what]} from your hand this round.`;
    case 'vp_per':
    case 'vp_per_rival':
    case 'income_per': {
      const every = a.every ?? 1;
      const per = every > 1 ? `every ${every} ${many[a.what]}` : `each ${one[a.what]}`;
      const unit = a.type === 'income_per' ? 'income' : 'VP';
      const where = a.type === 'vp_per_rival'
        ? 'the empire of the rival you choose' : 'your empire';
      return `+${amount} ${unit} for ${per} in ${where}.`;
    }
    case 'bonus_if': {
      const inc = a.income ?? 0;
      if (amount && inc) {
        return `+${amount} VP and +${inc} income if you have at least one ` +
          `other ${one[a.what]} (once).`;
      }
      return `+${amount || inc} ${amount ? 'VP' : 'income'} if you have at ` +
        `least one other ${one[a.what]} (once).`;
    }
    case 'top_military':
      return `At income, draw ${amount} more card${amount === 1 ? '' : 's'} if ` +
        'no empire has more military than yours (at least 1).';
    default:
      throw new Error(`unknown ability type ${a.type}`);
  }
}

function cardText(c) {
  const parts = [];
  if (c.central) {
    parts.push('Central: each player may place it once per game instead of ' +
      'a development from hand.');
  }
  for (const a of c.abilities ?? []) parts.push(abilityText(a));
  return parts.join(' ');
}

const esc = (s) => String(s).replace(/\|/g, '\\|');

function table(cards, priceHeader, price, withWorld) {
  const head = ['Card', 'Copies', priceHeader];
  if (withWorld) head.push('Colour');
  head.push('VP', 'Income', 'Explore', 'Military', 'Ability');
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const c of cards) {
    const row = [`**${esc(c.name)}**`, c.central ? '1 per player' : c.count, price(c)];
    if (withWorld) row.push(c.colour + (c.faction ? ` (${c.faction})` : ''));
    row.push(c.vp ?? 0, c.income ?? 0, c.explore ?? 0, c.military ?? 0,
      esc(cardText(c)) || '—');
    lines.push(`| ${row.join(' | ')} |`);
  }
  return lines.join('\n');
}

export function renderCards(data) {
  const cards = data.cards;
  const devs = cards.filter((c) => c.type === 'development');
  const civil = cards.filter((c) => c.type === 'world' && c.defence === undefined);
  const mil = cards.filter((c) => c.type === 'world' && c.defence !== undefined);
  const count = (l) => l.reduce((n, c) => n + (c.count ?? 0), 0);
  const deck = count(cards);
  const out = [];
  out.push(`The deck holds **${deck} cards** of **${cards.length - 1} designs**, ` +
    'plus one central survey card per player. Generated from ' +
    '`engine/rules/sprint/cards.json` by `node scripts/sprint-cards.mjs`; do not ' +
    'edit this section by hand.');
  out.push('');
  out.push(`### Developments (${count(devs)} cards)`);
  out.push('');
  out.push(table(devs, 'Cost', (c) => c.cost, false));
  out.push('');
  out.push(`### Non-military worlds (${count(civil)} cards)`);
  out.push('');
  out.push(table(civil, 'Cost', (c) => c.cost, true));
  out.push('');
  out.push(`### Military worlds (${count(mil)} cards)`);
  out.push('');
  out.push(table(mil, 'Defence', (c) => c.defence, true));
  return out.join('\n');
}

function main() {
  const data = JSON.parse(readFileSync(cardsPath, 'utf8'));
  const doc = readFileSync(docPath, 'utf8');
  const b = doc.indexOf(BEGIN);
  const e = doc.indexOf(END);
  if (b < 0 || e < b) {
    console.error(`${docPath}: markers ${BEGIN} ... ${END} not found`);
    process.exit(2);
  }
  const next = `${doc.slice(0, b + BEGIN.length)}\n${renderCards(data)}\n${doc.slice(e)}`;
  if (process.argv.includes('--check')) {
    if (next !== doc) {
      console.error('docs/games/sprint.md: card list is stale; run node scripts/sprint-cards.mjs');
      process.exit(1);
    }
    return;
  }
  if (next !== doc) writeFileSync(docPath, next);
}

main();
