// registry.js - the games the page has a table for. Each is a folder
// games/ID/ (ID: the ruleset id, as GET /api/v1/rulesets names it) whose
// index.js exports by default
//
//   { id, table, howto, legend?, styles? }
//
//   table(controller)  the renderer game.js hands its model to
//   howto              "How to play": { aim, sections: [{title, items}], guide? }
//   legend()           an extra part below the rules (Galactic Sprint's icons)
//   styles             CSS files of the folder, linked when the game loads
//
// A game's files are fetched the first time the page needs them (a table
// of that game, its "How to play"), not with the page: the home page loads
// none of them.
//
// Adding a game: its folder, and its id in the list below. A ruleset with
// no folder still plays: game.js shows its view as text.

const IDS = ['tictactoe', 'rps', 'sprint', 'skirmish', 'starbase', 'council'];

// A stylesheet linked once; resolves when it has loaded (or failed), so that
// a table is never drawn without it.
function link(href) {
  return new Promise((resolve) => {
    const el = document.createElement('link');
    el.rel = 'stylesheet';
    el.href = href;
    el.onload = el.onerror = () => resolve();
    document.head.append(el);
  });
}

const loading = new Map();

// The game of ruleset id, once its files and styles have loaded; null for a
// ruleset with no folder, or when its files could not be fetched (asked
// again the next time).
export function loadGame(id) {
  if (!IDS.includes(id)) return Promise.resolve(null);
  if (!loading.has(id)) {
    const load = import(`./${id}/index.js`).then(
      async (m) => {
        const game = m.default;
        if (typeof document !== 'undefined')
          await Promise.all(
            (game.styles || []).map((f) => link(new URL(`./${id}/${f}`, import.meta.url).href)),
          );
        return game;
      },
      () => {
        loading.delete(id);
        return null;
      },
    );
    loading.set(id, load);
  }
  return loading.get(id);
}
