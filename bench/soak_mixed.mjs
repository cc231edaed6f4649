// soak_mixed.mjs - the sealed-order half of bench/soak.sh: workers that play
// rock-paper-scissors and Galactic Sprint (a human seat driven from the
// legal answers, bots in the other seats) through the REST API, one game
// after another, until the duration is over. Prints one JSON object:
// {"games", "requests", "by_status": {...}, "errors": N, "error_samples": [...]}
// where errors are answers the client did not expect (5xx, transport
// failures, an order refused that the legal answer offered).
//
//   node bench/soak_mixed.mjs --url http://127.0.0.1:8080 --duration 300 --workers 8
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .reduce(
      (acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc),
      [],
    ),
);
const BASE = args.url || 'http://127.0.0.1:8080';
const END = Date.now() + Number(args.duration || 300) * 1000;
const WORKERS = Number(args.workers || 8);

const stats = { games: 0, requests: 0, by_status: {}, errors: 0, error_samples: [] };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pick = (a) => a[Math.floor(Math.random() * a.length)];

function error(what) {
  stats.errors++;
  if (stats.error_samples.length < 20) stats.error_samples.push(String(what).slice(0, 300));
}

async function call(method, p, { token, body } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  stats.requests++;
  try {
    const res = await fetch(BASE + p, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    stats.by_status[res.status] = (stats.by_status[res.status] || 0) + 1;
    if (res.status >= 500) error(`${method} ${p}: ${res.status} ${text}`);
    return { status: res.status, json: text ? JSON.parse(text) : null, text };
  } catch (e) {
    error(`${method} ${p}: ${e.message}`);
    return { status: 0, json: null, text: '' };
  }
}

async function playOne(me) {
  const sprint = Math.random() < 0.5;
  const seats = sprint ? pick([1, 2, 3, 4]) : 2;
  const body = sprint
    ? { ruleset: 'sprint', seats, options: seats > 1 ? { target_vp: 25 } : {} }
    : { ruleset: 'rps', seats: 2, options: { rounds: 5 } };
  const l = await call('POST', '/api/v1/lobbies', { token: me.token, body });
  if (l.status !== 201) return error(`lobby: ${l.status} ${l.text}`);
  for (let s = 1; s < seats; s++) {
    const b = await call('POST', `/api/v1/lobbies/${l.json.id}/bots`, {
      token: me.token,
      body: { level: pick(['random', 'basic']) },
    });
    if (b.status !== 200) return error(`bot: ${b.status} ${b.text}`);
  }
  const st = await call('POST', `/api/v1/lobbies/${l.json.id}/start`, { token: me.token });
  if (st.status !== 201) return error(`start: ${st.status} ${st.text}`);
  const id = st.json.game;
  for (let step = 0; step < 2000 && Date.now() < END + 60000; step++) {
    const g = await call('GET', `/api/v1/games/${id}`, { token: me.token });
    if (g.status !== 200) return error(`game: ${g.status} ${g.text}`);
    if (g.json.status !== 'running') {
      stats.games++;
      await call('GET', `/api/v1/games/${id}/export`, { token: me.token });
      return;
    }
    const w = g.json.windows.find(
      (x) => x.seats.includes(g.json.you) && !x.submitted.includes(g.json.you),
    );
    if (!w) {
      await sleep(5);
      continue;
    }
    const legal = await call('GET', `/api/v1/games/${id}/legal`, { token: me.token });
    const lw = legal.json?.windows?.find((x) => x.window === w.id);
    if (!lw) continue;
    let order;
    if (!sprint) order = { throw: pick(['rock', 'paper', 'scissors']), note: `n${step}` };
    else if (w.id.endsWith('.place')) {
      const c = pick(lw.choices);
      const placed = new Set([c.development, c.world, c.convoy_world]);
      const hand = (g.json.view.hand || []).map((x) => x.id).filter((x) => !placed.has(x));
      order = { ...c, pay: c.action === 'explore' ? undefined : hand.slice(0, c.cost) };
      delete order.cost;
      if (order.pay === undefined) delete order.pay;
    } else {
      order = {
        discard: (g.json.view.hand || []).slice(0, lw.choices[0].discard_count).map((x) => x.id),
      };
    }
    const r = await call('PUT', `/api/v1/games/${id}/orders/${w.id}`, {
      token: me.token,
      body: order,
    });
    if (r.status !== 200 && r.status !== 409)
      error(`order ${JSON.stringify(order)}: ${r.status} ${r.text}`);
    await call('GET', `/api/v1/games/${id}/log`, { token: me.token });
  }
}

async function worker(i) {
  const p = await call('POST', '/api/v1/players', {
    body: { name: `soak${process.pid % 10000}_${i}_${Date.now() % 100000}` },
  });
  if (p.status !== 201) return error(`player: ${p.status} ${p.text}`);
  while (Date.now() < END) await playOne(p.json);
}

await Promise.all(Array.from({ length: WORKERS }, (_, i) => worker(i)));
console.log(JSON.stringify(stats));
