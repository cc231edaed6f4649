// council_deal.mjs - the fixed deal of the Council browser scenario
// (tests/browser/council_council.test.mjs) and the human players' script
// it is played with, shared by the test (which plays it by clicking) and by
// the seed search (tests/browser/council_deal_search.mjs, which plays it
// over REST). A game's course depends only on its seed and its inputs (the
// basic bots choose without chance here), so with the seed below and the
// same choices the test always meets: round 1, a human's spy killing the
// other human's councillor; round 2, a human's Veto replacing the agenda
// and a tied vote the speaker (a human) breaks. The seed is given at the
// start, which the server accepts only with CONCLAVE_TEST_HOOKS=1.
//
// If the rules or the bots change, the scenario may no longer hold: the
// test then fails saying so; run the search again and paste its output
// here.

// Found by council_deal_search.mjs (seed number n): seats 0 and 1 are the
// humans (the host first), 2 and 3 basic bots; plan is round 2's council
// (each human's representative and vote), totals and outcome the vote it
// gives, speaker round 2's speaker.
export const DEAL = {
  n: 6,
  seed: '900381b9ab473a395a9f0ea4ff4c931fab75dacb93bb4b192bd781d9a3f6ac27',
  plan: { 0: { role: 'councillor', vote: 2 }, 1: { role: 'bodyguard', vote: 2 } },
  totals: [0, 0, 12, 12],
  outcome: 2,
  speaker: 0,
};

export const ASSASSINS = new Set(['oskan', 'korrun', 'dravik']);

// The strategy card a human picks: the first player takes Forum when it is
// left (it then speaks and chooses the agenda), otherwise each takes the
// first card left in the table's order.
export function pickFor(g, forumFirst) {
  const free = (g.view.strategy_cards || [])
    .filter((k) => k.owner === null || k.owner === undefined)
    .map((k) => k.key);
  if (forumFirst && free.includes('forum')) return 'forum';
  return free[0];
}

// The agenda the speaker puts: the first it holds.
export const agendaFor = (g) => (g.view.you.agendas || [])[0].key;

// Round 1's council: the spy's and the victim's parts (in the order the
// page puts them), by the agenda's kind.
export function round1Parts(kind, role, me, other) {
  if (role === 'spy')
    return [
      ['representative', { type: 'representative', role: 'spy', target: other }],
      ['vote', kind === 'election' ? { type: 'vote', seat: me } : { type: 'vote', for: true }],
      ['markers', { type: 'markers', count: 1 }],
    ];
  return [
    ['representative', { type: 'representative', role: 'councillor' }],
    ['vote', kind === 'election' ? { type: 'vote', seat: me } : { type: 'vote', for: false }],
  ];
}

// Round 2's lobby: the first player gives the second a trade good when it
// holds one (else the second gives the first, if it can); a human holding
// a Veto (or Motion to Reconsider) plays it.
export const VETOES = ['veto', 'reconsider'];
export function giverOf(ga, gb) {
  const tg = (g) => g.view.players[g.you].trade_goods;
  if (tg(ga) > 0) return ga.you;
  if (tg(gb) > 0) return gb.you;
  return -1;
}
export const vetoOf = (g) => (g.view.you.hand || []).find((c) => VETOES.includes(c.key));

// The representative part a round 2 plan names (null: a clerk by default).
export const repPart = (role) => (role === 'clerk' ? null : { type: 'representative', role });
// The vote part a round 2 plan names (null: no vote).
export function votePart(kind, v) {
  if (v === null || v === undefined) return null;
  return kind === 'election' ? { type: 'vote', seat: v } : { type: 'vote', for: v === 1 };
}
