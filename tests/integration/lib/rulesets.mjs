// rulesets.mjs - the ruleset ids the engine is built with, in its order, read
// from engine/rulesets.def (one RULESET(id) line each): what the canary and
// the self-play checks walk, so that a new ruleset joins them by itself.
import { readFileSync } from 'node:fs';

const ROOT = new URL('../../../', import.meta.url);

export function engineRulesets() {
  const def = readFileSync(new URL('engine/rulesets.def', ROOT), 'utf8');
  return [...def.matchAll(/^RULESET\(([a-z0-9_]+)\)\s*$/gm)].map((m) => m[1]);
}
