// registry.js - the games the page has a table for. Each is a folder
// games/ID/ (ID: the ruleset id, as GET /api/v1/rulesets names it) whose
// index.js exports by default
//
//   { id, table, howto, legend?, styles? }
//
//   table(controller)  the renderer game.js hands its model to
//   howto              "How to play": { aim, sections: [{title, items}], guide? }
//   legend()           an extra part below the rules (Galactic Sprint's icons)
//   styles             CSS files of the folder, linked when the page loads
//
// Adding a game: its folder, and its id in the list below. A ruleset with
// no folder still plays: game.js shows its view as text.

const IDS = ['tictactoe', 'rps', 'sprint', 'skirmish', 'starbase', 'council'];

const GAMES = new Map(
  (await Promise.all(IDS.map((id) => import(`./${id}/index.js`)))).map((m, i) => [
    IDS[i],
    m.default,
  ]),
);

// The game of ruleset id, or null.
export function gameOf(id) {
  return GAMES.get(id) || null;
}

// Every game's styles, linked once; resolves when they have loaded (or
// failed), so that a table is never drawn without them.
function link(href) {
  return new Promise((resolve) => {
    const el = document.createElement('link');
    el.rel = 'stylesheet';
    el.href = href;
    el.onload = el.onerror = () => resolve();
    document.head.append(el);
  });
}

export const stylesLoaded =
  typeof document === 'undefined'
    ? Promise.resolve()
    : Promise.all(
        [...GAMES].flatMap(([id, g]) =>
          (g.styles || []).map((f) => link(new URL(`./${id}/${f}`, import.meta.url).href)),
        ),
      );
