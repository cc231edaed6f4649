// tictactoe.test.mjs - two players in two browser contexts: one creates a
// private tic-tac-toe lobby, the other joins through the invite link, and
// they play a game to the end on the board. Every play is a POST /plays with
// an Idempotency-Key header.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  chromiumPath,
  openPage,
  pageUrl,
  shot,
  signUpGuest,
  createLobby,
  waitLive,
  startStack,
  stopStack,
} from './lib/browser.mjs';

const skip = chromiumPath() ? false : 'no Chromium installed';
let db, server, chrome;

before(async () => {
  if (!skip) ({ db, server, chrome } = await startStack());
});
after(() => stopStack({ db, server, chrome }));

test(
  'tic-tac-toe between two browsers, joined by an invite link',
  { skip, timeout: 120000 },
  async () => {
    const A = await openPage(chrome.browser);
    const B = await openPage(chrome.browser);
    const alice = A.page;
    const bob = B.page;
    const plays = [];
    for (const p of [alice, bob])
      p.on('request', (r) => {
        if (r.method() === 'POST' && r.url().endsWith('/plays'))
          plays.push({ key: r.headers()['idempotency-key'], body: r.postDataJSON() });
      });

    // The games' folders Bob's page fetches (web/games/ID/...): a game's
    // files load when its table (or its rules) first show, not with the page.
    const gameFiles = new Set();
    bob.on('request', (r) => {
      const m = new URL(r.url()).pathname.match(/^\/games\/([a-z]+\/.+)$/);
      if (m) gameFiles.add(m[1]);
    });

    await signUpGuest(alice, server, 'Xena');
    // Bob makes an account with a password, signs out and signs in again.
    await bob.goto(pageUrl(server, '/'));
    await bob.getByLabel('Name', { exact: true }).fill('Osric');
    await bob.getByLabel('Password').fill('correct horse battery');
    await bob.getByRole('button', { name: 'Create account' }).click();
    await bob.locator('[data-testid="who"]', { hasText: 'Osric' }).waitFor();
    await bob.getByRole('button', { name: 'Sign out' }).click();
    await bob.locator('#who', { hasText: 'Not signed in' }).waitFor();
    assert.equal(
      await bob.evaluate(() => localStorage.getItem('conclave.token')),
      null,
      'the token is forgotten',
    );
    await bob.getByLabel('Name', { exact: true }).fill('Osric');
    await bob.getByLabel('Password').fill('wrong password');
    await bob.getByRole('button', { name: 'Sign in', exact: true }).click();
    await bob.locator('p.error', { hasText: 'the name or the password is wrong' }).waitFor();
    await bob.getByLabel('Password').fill('correct horse battery');
    await bob.getByRole('button', { name: 'Sign in', exact: true }).click();
    await bob.locator('[data-testid="who"]', { hasText: 'Osric' }).waitFor();

    await createLobby(alice, {
      game: 'Tic-tac-toe',
      seats: 2,
      isPrivate: true,
      clock: { mode: 'live', seconds: 120 },
    });
    const link = await alice.locator('#invite').inputValue();
    assert.match(link, /\/lobby\/[a-z0-9]+\?code=/);
    assert.match(link, new RegExp(`ws=${server.wsPort}`), 'the link carries the WebSocket port');

    // A private lobby is not in anyone's list.
    await bob.goto(pageUrl(server, '/'));
    await bob.locator('#lobbies-h').waitFor();
    assert.equal(await bob.locator('.lobby-row', { hasText: 'Xena' }).count(), 0);

    await bob.goto(link);
    await bob.getByRole('heading', { name: 'Tic-tac-toe lobby', level: 1 }).waitFor();
    assert.equal(await bob.locator('h1').count(), 1, 'the lobby page has one h1');
    await bob.getByRole('button', { name: 'Sit here' }).click();
    await bob.locator('.seat-row', { hasText: 'Osric' }).waitFor();
    await alice.locator('.seat-row', { hasText: 'Osric' }).waitFor();
    // Home page, account, lobby: no game's files but the campaign page's.
    assert.deepEqual([...gameFiles], ['sprint/campaign.js']);
    await alice.getByRole('button', { name: 'Start game' }).click();
    await alice.waitForURL(/\/game\//);
    await bob.waitForURL(/\/game\//);
    await waitLive(alice);
    await waitLive(bob);
    const restAtStart = [alice.rest.length, bob.rest.length];

    await alice.getByTestId('ttt-status').filter({ hasText: 'Your turn' }).waitFor();
    // The live clock counts down the window's deadline.
    await alice.locator('.countdown time', { hasText: /^[12]:[0-5][0-9]$/ }).waitFor();
    await bob.getByTestId('ttt-status').filter({ hasText: 'Xena (X) to move' }).waitFor();
    assert.equal(
      await bob.locator('button[data-cell]:not([disabled])').count(),
      0,
      'not your turn: the board is locked',
    );

    const moves = [
      [alice, 0],
      [bob, 4],
      [alice, 1],
      [bob, 8],
      [alice, 2],
    ];
    for (const [page, cell] of moves) {
      await page.waitForFunction((c) => {
        const el = document.querySelector(`button[data-cell="${c}"]`);
        return el && !el.disabled;
      }, cell);
      await page.locator(`button[data-cell="${cell}"]`).click();
      // Both boards show the mark.
      for (const p of [alice, bob])
        await p.locator(`button[data-cell="${cell}"]:not(.free)`).waitFor();
    }
    // The table: tic-tac-toe's folder, and no other game's.
    assert.ok(gameFiles.has('tictactoe/index.js'), [...gameFiles].join(' '));
    assert.deepEqual(
      [...gameFiles].filter((f) => !f.startsWith('tictactoe/') && f !== 'sprint/campaign.js'),
      [],
    );
    await alice.getByTestId('ttt-status').filter({ hasText: 'You won!' }).waitFor();
    await bob.getByTestId('ttt-status').filter({ hasText: 'Xena (X) won.' }).waitFor();
    assert.equal(
      await alice.locator('button.ttt-cell.win').count(),
      3,
      'the winning line is marked',
    );
    assert.equal(
      await bob.locator('button[aria-label="row 1, column 2: X"]').count(),
      1,
      'cells have text labels',
    );
    await shot(alice, 'tictactoe');

    assert.equal(plays.length, 5);
    for (const p of plays) {
      assert.ok(p.key && p.key.length >= 16, 'an Idempotency-Key on every play');
      assert.ok(typeof p.body.window === 'string' && Number.isInteger(p.body.cell));
    }
    assert.equal(new Set(plays.map((p) => p.key)).size, 5, 'a new key for each play');
    const log = await bob.locator('.log-list').textContent();
    assert.match(log, /Xena \(X\) took row 1, column 3/);
    for (const p of [alice, bob]) assert.deepEqual(p.problems, []);
    // From its start to its end a normal game asks nothing the server
    // refuses (the browser logs every 4xx as a console error: the rematch
    // probe's 404 at a game's end was one).
    await alice.waitForTimeout(500);
    for (const [i, p] of [alice, bob].entries())
      assert.deepEqual(
        p.rest
          .slice(restAtStart[i])
          .filter((r) => r.status >= 400)
          .map((r) => `${r.status} ${r.url}`),
        [],
        'no refused request in a normal game',
      );
    await A.context.close();
    await B.context.close();
  },
);

test(
  'lobby seats: join, leave, a bot from the host, and closing',
  { skip, timeout: 90000 },
  async () => {
    const A = await openPage(chrome.browser);
    const B = await openPage(chrome.browser);
    const host = A.page;
    const guest = B.page;
    await signUpGuest(host, server, 'Hostess');
    await signUpGuest(guest, server, 'Visitor');
    await createLobby(host, { game: 'Galactic Sprint', seats: 3 });
    const lobbyId = new URL(host.url()).pathname.split('/').pop();
    assert.ok(
      await host.getByRole('button', { name: 'Start game' }).isDisabled(),
      'empty seats: no start',
    );

    await guest.goto(pageUrl(server, '/'));
    const row = guest.locator(`.lobby-row[data-lobby-id="${lobbyId}"]`);
    await row.getByRole('button', { name: /^Join/ }).click();
    await guest.waitForURL(new RegExp(`/lobby/${lobbyId}`));
    await host.locator('.seat-row', { hasText: 'Visitor' }).waitFor();
    // The home list follows: 2 of 3 seats taken.
    const watcher = await openPage(chrome.browser);
    await watcher.page.goto(pageUrl(server, '/'));
    await watcher.page
      .locator(`.lobby-row[data-lobby-id="${lobbyId}"] [aria-label="2 of 3 seats taken"]`)
      .waitFor();

    await guest.getByRole('button', { name: 'Leave' }).click();
    await guest.waitForURL((u) => u.pathname === '/');
    await host.locator('.seat-row', { hasText: 'Visitor' }).waitFor({ state: 'detached' });
    await watcher.page
      .locator(`.lobby-row[data-lobby-id="${lobbyId}"] [aria-label="1 of 3 seats taken"]`)
      .waitFor();

    await host.getByRole('button', { name: 'Add bot' }).first().click();
    await host.locator('.seat-row strong', { hasText: /^Basic bot$/ }).waitFor(); // named by its level
    await host.getByRole('button', { name: 'Close lobby' }).click();
    await host.waitForURL((u) => u.pathname === '/');
    await watcher.page
      .locator(`.lobby-row[data-lobby-id="${lobbyId}"]`)
      .waitFor({ state: 'detached' });
    for (const p of [host, guest, watcher.page]) assert.deepEqual(p.problems, []);
    await A.context.close();
    await B.context.close();
    await watcher.context.close();
  },
);

test(
  'an invite link opened while signed out leads back to its lobby after picking a name',
  { skip, timeout: 90000 },
  async () => {
    const { page: host, context: hc } = await openPage(chrome.browser);
    await signUpGuest(host, server, 'Ysolde');
    await createLobby(host, { game: 'Tic-tac-toe', seats: 2, isPrivate: true });
    const link = await host.locator('#invite').inputValue();
    const lobbyPath = new URL(link).pathname;

    const { page: guest, context: gc } = await openPage(chrome.browser);
    await guest.goto(link);
    await guest.getByRole('heading', { name: 'Tic-tac-toe lobby' }).waitFor();
    await guest.getByRole('link', { name: 'Pick a name' }).click();
    await guest.getByLabel('Your name').fill('Zoltan');
    await guest.getByRole('button', { name: 'Play', exact: true }).click();
    // Back on the private lobby, invite code kept: the seat can be taken.
    await guest.waitForURL((u) => u.pathname === lobbyPath);
    await guest.getByRole('button', { name: 'Sit here' }).click();
    await host.locator('.seat-row', { hasText: 'Zoltan' }).waitFor();
    assert.deepEqual(guest.problems, []);
    await gc.close();
    await hc.close();
  },
);
