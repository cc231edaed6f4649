// play.ts - a small typed client of the REST API, as a client author would
// write one: its types are generated from api/openapi.yaml by openapi-typescript
// (into schema.d.ts beside this file, with --default-non-nullable false) and its
// calls go through openapi-fetch's createClient<paths>(). It registers two
// players, creates lobbies with typed options, joins, starts, plays each game
// to its end choosing moves from GET /legal, and reads the typed GameResult.
// typed_client.test.mjs type-checks it (tsc --strict), compiles it and runs
// it: `node play.js BASE_URL NAME_PREFIX`. It prints one JSON line, the
// games as it saw them; any failed call throws (exit status 1).
import createClient from 'openapi-fetch';
import type { components, paths } from './schema.js';

// Node's own globals, the few used here (the test installs no @types/node).
declare const process: { argv: string[]; exitCode?: number };

type Schemas = components['schemas'];
type Client = ReturnType<typeof createClient<paths>>;

// One ruleset's options, typed by its own schema: members with a default may
// be left out (generated with --default-non-nullable false).
const rpsOptions: Schemas['OptionsRps'] = { rounds: 2 };
const councilOptions: Schemas['OptionsCouncil'] = { vp_target: 8, secret_votes: true };
const noOptions: Schemas['OptionsTictactoe'] = {};

// The types refuse what the server refuses (tsc fails if one of these
// lines type-checks, so a loosened schema shows here).
// @ts-expect-error rounds is an integer
const badRounds: Schemas['OptionsRps'] = { rounds: 'two' };
// @ts-expect-error tic-tac-toe has no options
const badTicTacToe: Schemas['OptionsTictactoe'] = { rounds: 2 };
// @ts-expect-error a play names its window
const badPlay: Schemas['Play'] = { cell: 4 };
void [badRounds, badTicTacToe, badPlay];

const [base, prefix] = process.argv.slice(2);
if (!base || !prefix) throw new Error('usage: node play.js BASE_URL NAME_PREFIX');

// The data of an answer, or an error naming the call and the server's problem.
function ok<T>(r: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (r.data === undefined)
    throw new Error(`${what}: ${r.response.status} ${JSON.stringify(r.error ?? null)}`);
  return r.data;
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

interface Player {
  name: string;
  api: Client;
}

async function register(name: string): Promise<Player> {
  const anonymous = createClient<paths>({ baseUrl: base });
  const created = ok(
    await anonymous.POST('/api/v1/players', { body: { name } }),
    `create player ${name}`,
  );
  const api = createClient<paths>({
    baseUrl: base,
    headers: { Authorization: `Bearer ${created.token}` },
  });
  return { name: created.name, api };
}

interface Played {
  ruleset: string;
  game: string;
  status: Schemas['GameStatus'];
  moves: number;
  lobby_options: Schemas['GameOptions'];
  result: { winners: number[]; draw: boolean | null } | { aborted: true };
  export_result: Schemas['GameResult'] | null;
  view_over: boolean;
  view_winner: unknown;
}

// A lobby of two seats hosted by the first player, the second joining; started.
async function startGame(
  host: Player,
  guest: Player,
  ruleset: string,
  options: Schemas['GameOptions'],
): Promise<{ game: string; options: Schemas['GameOptions'] }> {
  const lobby = ok(
    await host.api.POST('/api/v1/lobbies', {
      body: { ruleset, seats: 2, options, clock: { mode: 'none' } },
    }),
    `create ${ruleset} lobby`,
  );
  const joined = ok(
    await guest.api.POST('/api/v1/lobbies/{id}/seats', {
      params: { path: { id: lobby.id } },
      body: {},
    }),
    'join',
  );
  if (joined.seats.some((s) => !s.ready)) throw new Error('a seat is still free');
  const started = ok(
    await host.api.POST('/api/v1/lobbies/{id}/start', { params: { path: { id: lobby.id } } }),
    'start',
  );
  return { game: started.game, options: lobby.options };
}

// Plays the game to its end: each seat in turn looks at the open windows,
// and for each one waiting on it sends a choice of GET /legal (an order to a
// sealed window, a play to an open one).
async function playOut(seats: Player[], id: string): Promise<number> {
  let moves = 0;
  for (let round = 0; round < 400; round++) {
    let acted = false;
    for (const [seat, p] of seats.entries()) {
      const path = { id };
      const g = ok(await p.api.GET('/api/v1/games/{id}', { params: { path } }), 'game');
      if (g.status !== 'running') return moves;
      const waiting = g.windows.filter(
        (w) => w.seats.includes(seat) && !(w.mode === 'sealed' && w.submitted.includes(seat)),
      );
      if (waiting.length === 0) continue;
      const legal = ok(await p.api.GET('/api/v1/games/{id}/legal', { params: { path } }), 'legal');
      for (const w of legal.windows) {
        if (!waiting.some((x) => x.id === w.window)) continue;
        const choices = w.choices ?? [];
        if (choices.length === 0) throw new Error(`window ${w.window} lists no choices`);
        const choice = choices[(moves * 5 + seat * 3) % choices.length];
        if (w.kind === 'order') {
          ok(
            await p.api.PUT('/api/v1/games/{id}/orders/{window}', {
              params: { path: { id, window: w.window } },
              body: choice,
            }),
            `order in ${w.window}`,
          );
        } else {
          ok(
            await p.api.POST('/api/v1/games/{id}/plays', {
              params: { path },
              body: { ...choice, window: w.window },
            }),
            `play in ${w.window}`,
          );
        }
        moves += 1;
        acted = true;
      }
    }
    if (!acted) await sleep(20);
  }
  throw new Error(`game ${id} did not end within 400 rounds`);
}

// The game's end as the typed GameResult tells it.
function outcome(result: Schemas['GameResult'] | null): Played['result'] {
  if (result === null) throw new Error('a finished game without a result');
  if ('winners' in result) return { winners: result.winners, draw: result.draw ?? null };
  return { aborted: result.aborted };
}

async function play(
  seats: Player[],
  ruleset: string,
  options: Schemas['GameOptions'],
): Promise<Played> {
  const { game, options: lobbyOptions } = await startGame(seats[0], seats[1], ruleset, options);
  const moves = await playOut(seats, game);
  const path = { id: game };
  const g = ok(await seats[0].api.GET('/api/v1/games/{id}', { params: { path } }), 'game');
  const exp = ok(
    await seats[1].api.GET('/api/v1/games/{id}/export', { params: { path } }),
    'export',
  );
  return {
    ruleset,
    game,
    status: g.status,
    moves,
    lobby_options: lobbyOptions,
    result: outcome(g.result),
    export_result: exp.result,
    view_over: g.view.over,
    // A member of the ruleset's own (tic-tac-toe's, rps's `winner`).
    view_winner: g.view.winner,
  };
}

async function main(): Promise<void> {
  const ada = await register(`${prefix}_ada`);
  const bo = await register(`${prefix}_bo`);
  const seats = [ada, bo];
  const games = [await play(seats, 'rps', rpsOptions), await play(seats, 'tictactoe', noOptions)];
  // A lobby of a ruleset with more options: created, its options read back,
  // and closed by its host leaving.
  const council = ok(
    await ada.api.POST('/api/v1/lobbies', {
      body: { ruleset: 'council', seats: 3, options: councilOptions },
    }),
    'create council lobby',
  );
  const left = ok(
    await ada.api.DELETE('/api/v1/lobbies/{id}/seats/me', {
      params: { path: { id: council.id } },
    }),
    'leave council lobby',
  );
  console.log(
    JSON.stringify({
      games,
      council: { options: council.options, status: left.status },
    }),
  );
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exitCode = 1;
});
