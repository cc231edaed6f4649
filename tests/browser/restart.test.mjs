// restart.test.mjs - the server is killed mid-game and a new one started on
// the same ports and database: the page shows that it is offline, reconnects
// by itself, resumes from the version it held, and the game goes on to the
// end. A page reload after the restart finds the game too.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../integration/lib/server.mjs';
import {
  chromiumPath,
  openPage,
  signUpGuest,
  waitLive,
  startStack,
  stopStack,
  fixDeal,
} from './lib/browser.mjs';
import { nextWindow, playMove, handCards } from './lib/sprint.mjs';

const skip = chromiumPath() ? false : 'no Chromium installed';
let db, server, chrome;

before(async () => {
  if (!skip) ({ db, server, chrome } = await startStack('web', { CONCLAVE_TEST_HOOKS: '1' }));
});
after(() => stopStack({ db, server, chrome }));

test(
  'killing and restarting the server mid-game: the page reconnects and the game goes on',
  { skip, timeout: 180000 },
  async (t) => {
    const { page, context } = await openPage(chrome.browser);
    // On a failure, say where the page was.
    let passed = false;
    t.after(async () => {
      if (!passed) {
        const where = await page
          .evaluate(() => ({
            url: location.href,
            conn: document.getElementById('conn').dataset.state,
            move: document.querySelector('section.move')?.outerHTML.slice(0, 400),
            main: document.querySelector('main').innerText.slice(0, 1500),
          }))
          .catch((e) => String(e));
        console.log(
          '# page at failure:',
          JSON.stringify(where),
          page.problems,
          server.lines.slice(-30).join('\n'),
        );
      }
    });
    // The deal is fixed, and every move is one GET /legal lists (lib/sprint.mjs).
    await fixDeal(context, 'restart');
    await signUpGuest(page, server, 'Phoenix');
    await page.getByRole('button', { name: 'Quick solitaire Sprint' }).click();
    await page.waitForURL(/\/game\//);
    let last = null;
    // Two rounds first.
    for (;;) {
      const w = await nextWindow(page, last);
      if (w === 'r3.place') {
        last = null;
        break;
      }
      await playMove(page, w, { strategy: 'build' });
      last = w;
    }
    const hand = (await handCards(page)).map((c) => c.id);
    const sockets = page.sockets.length;

    // Kill it: no goodbye to anyone.
    const { httpPort, wsPort } = server;
    await server.stop('SIGKILL');
    await page.locator('#conn[data-state="offline"]').waitFor({ timeout: 15000 });
    assert.match(await page.locator('#conn').textContent(), /Offline/);

    server = await startServer({
      db,
      env: { CONCLAVE_HTTP_PORT: String(httpPort), CONCLAVE_WS_PORT: String(wsPort) },
    });
    assert.equal(server.httpPort, httpPort);
    assert.equal(server.wsPort, wsPort);
    await waitLive(page, 30000);
    assert.ok(page.sockets.length > sockets, 'a new WebSocket was opened');
    // The table is where it was.
    assert.match(await page.getByTestId('round').textContent(), /Round 3 of 7/);
    assert.deepEqual(
      (await handCards(page)).map((c) => c.id),
      hand,
    );

    // The game goes on: one round, then a reload, then to the end.
    const w3 = await nextWindow(page, null);
    assert.equal(w3, 'r3.place');
    await playMove(page, w3, { strategy: 'build' });
    await page.reload();
    await waitLive(page);
    last = null;
    for (;;) {
      const w = await nextWindow(page, last);
      if (!w) break;
      await playMove(page, w, { strategy: 'build' });
      last = w;
    }
    await page.getByTestId('result').waitFor();
    assert.match(await page.locator('.result-sub').textContent(), /after 7 rounds/);
    assert.deepEqual(page.problems, []);
    passed = true;
    await context.close();
  },
);
