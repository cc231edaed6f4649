#!/usr/bin/env node
// sprint-cards.mjs - regenerates the card list of docs/games/sprint.md (the
// part between "<!-- cards:begin -->" and "<!-- cards:end -->") from
// engine/rules/sprint/cards.json. Plain node, no dependencies.
//
//   node scripts/sprint-cards.mjs           rewrite the section in place
//   node scripts/sprint-cards.mjs --check   exit 1 if the section is stale
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cardsPath = join(root, 'engine/rules/sprint/cards.json');
const docPath = join(root, 'docs/games/sprint.md');
const BEGIN = '<!-- cards:begin -->';
const END = '<!-- cards:end -->';

// Each card's ability text is written once, in cards.json ("text"): the
// engine hands the same text to clients in every view.
const cardText = (c) => c.text ?? '';

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
