// report.mjs - the table of a bench/run.sh run: reads OUT/*.json and prints
// Markdown (engine figures, play runs side by side with ratios, fan-out,
// Sprint with sealed orders, the goals). Usage: node bench/report.mjs OUT
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node bench/report.mjs OUT');
  process.exit(2);
}
const load = (f) => {
  const p = path.join(dir, f);
  if (!existsSync(p)) return null;
  try {
    return JSON.parse(readFileSync(p, 'utf8'));
  } catch {
    return null;
  }
};
const files = readdirSync(dir);
const fmt = (x, d = 0) =>
  x === null || x === undefined || Number.isNaN(x) ? '-' : Number(x).toFixed(d);
const ratio = (a, b, d = 2) => (a == null || b == null || !b ? '-' : (a / b).toFixed(d));
const mib = (kb) => (kb > 0 ? (kb / 1024).toFixed(1) : '-');
const lines = [];
const say = (s = '') => lines.push(s);

if (existsSync(path.join(dir, 'machine.txt'))) {
  say('Machine:');
  say('```');
  say(readFileSync(path.join(dir, 'machine.txt'), 'utf8').trim());
  say('```');
  say();
}

// ---- engine
const self = files
  .filter((f) => f.startsWith('selfplay-'))
  .sort()
  .map(load)
  .filter(Boolean);
if (self.length) {
  say('Engine (`conclave selfplay`, basic bots, one thread):');
  say();
  say('| ruleset | seats | games | games/s | inputs/s |');
  say('|---|---:|---:|---:|---:|');
  for (const s of self)
    say(
      `| ${s.ruleset} | ${s.seats} | ${s.games} | ${fmt(s.games_per_s)} | ${fmt(s.inputs_per_s)} |`,
    );
  say();
}

// ---- play
// Prometheus counters saved by run.sh ("name value" lines) as {name: number}.
function metricsOf(name) {
  const out = {};
  try {
    for (const line of readFileSync(path.join(dir, name), 'utf8').split('\n')) {
      const [k, v] = line.split(' ');
      if (k && v) out[k] = Number(v);
    }
  } catch {
    /* no such file: an older run */
  }
  return out;
}

const sizes = [
  ...new Set(
    files.map((f) => f.match(/^play-(?:conclave|bgio|bgiopg)-(\d+)\.json$/)?.[1]).filter(Boolean),
  ),
]
  .map(Number)
  .sort((a, b) => a - b);
const goals = [];
if (sizes.length) {
  say('Play: concurrent tic-tac-toe games, two players each, moves sent only after the');
  say("mover's WebSocket delivered its turn. **Ours with durable commits**");
  say('(PostgreSQL synchronous_commit=on, fsync=on); boardgame.io 0.50.2 with its');
  say("default in-memory storage. Latency: send of a move -> the opponent's socket");
  say('delivers it. CPU per move: server process (ours also with all PostgreSQL');
  say('processes of the cluster) over the measured window / moves.');
  say();
  say(
    '| games | moves/s ours | moves/s bgio | ours/bgio | p50 ms ours | p50 bgio | p99 ms ours | p99 bgio | p99 ours/bgio | CPU us/move ours | ours+pg | bgio | ours/bgio | ours+pg/bgio | peak RSS MiB ours | bgio | errors ours/bgio |',
  );
  say('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const n of sizes) {
    const o = load(`play-conclave-${n}.json`);
    const t = load(`play-bgio-${n}.json`);
    const errs = (r) =>
      r
        ? Object.entries(r.errors)
            .filter(([k]) => ['play', 'setup', 'register', 'ws', 'ws_lost'].includes(k))
            .reduce((a, [, v]) => a + v, 0)
        : '-';
    const oc = o?.cpu_per_move_us ?? {};
    const tc = t?.cpu_per_move_us ?? {};
    say(
      `| ${n} | ${fmt(o?.moves_per_s)} | ${fmt(t?.moves_per_s)} | ${ratio(o?.moves_per_s, t?.moves_per_s)} ` +
        `| ${fmt(o?.move_latency_ms?.p50, 1)} | ${fmt(t?.move_latency_ms?.p50, 1)} ` +
        `| ${fmt(o?.move_latency_ms?.p99, 1)} | ${fmt(t?.move_latency_ms?.p99, 1)} | ${ratio(o?.move_latency_ms?.p99, t?.move_latency_ms?.p99)} ` +
        `| ${fmt(oc.server)} | ${fmt(oc.server_postgres)} | ${fmt(tc.server)} | ${ratio(oc.server, tc.server, 3)} | ${ratio(oc.server_postgres, tc.server, 3)} ` +
        `| ${mib(o?.rss_kb?.hwm)} | ${mib(t?.rss_kb?.hwm)} | ${errs(o)}/${errs(t)} |`,
    );
    if (o && t && (n === 100 || n === 500)) {
      const r = o.moves_per_s / t.moves_per_s;
      goals.push([`moves/s >= 2x boardgame.io at ${n} games`, r >= 2, `${r.toFixed(2)}x`]);
    }
    if (o && n === 100)
      goals.push([
        'p99 <= 50 ms at 100 games',
        o.move_latency_ms?.p99 <= 50,
        `${fmt(o.move_latency_ms?.p99, 1)} ms`,
      ]);
    if (o && t && n === 100) {
      goals.push([
        "server CPU/move below boardgame.io's (100 games)",
        oc.server < tc.server,
        ratio(oc.server, tc.server, 3),
      ]);
    }
    const p = load(`play-bgiopg-${n}.json`);
    if (o && p && n === 100) {
      const r = o.moves_per_s / p.moves_per_s;
      goals.push([
        'moves/s >= 5x boardgame.io with bgio-postgres (100 games)',
        r >= 5,
        `${r.toFixed(2)}x`,
      ]);
    }
  }
  if (sizes.some((n) => load(`play-bgiopg-${n}.json`))) {
    say();
    say('Against boardgame.io with its PostgreSQL adapter (bgio-postgres, the same private');
    say('cluster; CPU: the node process only):');
    say();
    say(
      '| games | moves/s ours | moves/s bgio-pg | ours/bgio-pg | p50 ms ours | p50 bgio-pg | p99 ms ours | p99 bgio-pg | CPU us/move bgio-pg | errors bgio-pg |',
    );
    say('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const n of sizes) {
      const o = load(`play-conclave-${n}.json`);
      const p = load(`play-bgiopg-${n}.json`);
      if (!p) continue;
      const errs = Object.entries(p.errors)
        .filter(([k]) => ['play', 'setup', 'register', 'ws', 'ws_lost'].includes(k))
        .reduce((a, [, v]) => a + v, 0);
      say(
        `| ${n} | ${fmt(o?.moves_per_s)} | ${fmt(p.moves_per_s)} | ${ratio(o?.moves_per_s, p.moves_per_s)} ` +
          `| ${fmt(o?.move_latency_ms?.p50, 1)} | ${fmt(p.move_latency_ms?.p50, 1)} | ${fmt(o?.move_latency_ms?.p99, 1)} | ${fmt(p.move_latency_ms?.p99, 1)} ` +
          `| ${fmt(p.cpu_per_move_us?.server)} | ${errs} |`,
      );
    }
  }
  const commits = sizes
    .map((n) => [n, metricsOf(`play-conclave-${n}.metrics.txt`)])
    .filter(([, m]) => m.conclave_commits_total);
  if (commits.length) {
    say();
    say("Group commit (the server's counters over its whole life, setup included):");
    say();
    say('| games | inputs | transactions | inputs per transaction | largest batch |');
    say('|---:|---:|---:|---:|---:|');
    for (const [n, m] of commits)
      say(
        `| ${n} | ${m.conclave_commit_inputs_total} | ${m.conclave_commits_total} | ${(m.conclave_commit_inputs_total / m.conclave_commits_total).toFixed(2)} | ${m.conclave_commit_batch_max ?? '-'} |`,
      );
  }
  say();
  say(
    "Setup (new game through the lobby until both players hold the first snapshot), p50 / p99 ms, and the generators' own CPU per move:",
  );
  say();
  say(
    '| games | setup ours | setup bgio | games finished ours | bgio | client CPU us/move ours (C) | bgio (Node) |',
  );
  say('|---:|---|---|---:|---:|---:|---:|');
  for (const n of sizes) {
    const o = load(`play-conclave-${n}.json`);
    const t = load(`play-bgio-${n}.json`);
    const s = (r) => (r?.setup_ms ? `${fmt(r.setup_ms.p50, 1)} / ${fmt(r.setup_ms.p99, 1)}` : '-');
    say(
      `| ${n} | ${s(o)} | ${s(t)} | ${fmt(o?.games_finished)} | ${fmt(t?.games_finished)} | ${fmt(o?.cpu_per_move_us?.loadgen)} | ${fmt(t?.cpu_per_move_us?.loadgen)} |`,
    );
  }
  say();
  const idle = sizes.map((n) => load(`play-conclave-${n}.json`)?.rss_kb?.idle).filter((x) => x > 0);
  if (idle.length) {
    const m = Math.max(...idle);
    goals.push(['idle RSS <= 16 MiB', m <= 16384, `${mib(m)} MiB`]);
  }
}

// ---- fan-out
const fan = files
  .filter((f) => /^fanout-.*\.json$/.test(f))
  .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
  .map(load)
  .filter(Boolean);
if (fan.length) {
  say(
    'Fan-out: spectators (unauthenticated WebSockets) following their game; one move per game every',
  );
  say(
    `${fan[0].fanout.interval_ms} ms. Delivery latency from the play's HTTP 200 as the client saw it (negative: the`,
  );
  say(
    'spectator had it first) and from the send of the play. Memory: server RSS with the games set up,',
  );
  say('then with every spectator subscribed.');
  say();
  say(
    '| games x spectators | connections subscribed | connect s | deliveries | from 200 p50 ms | p99 | from send p50 ms | p99 | RSS idle MiB | with games | with spectators | KiB/connection | server CPU s |',
  );
  say('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  let most = 0;
  for (const r of fan) {
    const f = r.fanout;
    most = Math.max(most, f.subscribed);
    say(
      `| ${r.games} x ${f.spectators_per_game} | ${f.subscribed}/${f.connections} | ${fmt(f.connect_s, 1)} | ${f.deliveries} ` +
        `| ${fmt(f.delivery_ms_from_commit?.p50, 2)} | ${fmt(f.delivery_ms_from_commit?.p99, 2)} ` +
        `| ${fmt(f.delivery_ms_from_send?.p50, 2)} | ${fmt(f.delivery_ms_from_send?.p99, 2)} ` +
        `| ${mib(f.rss_kb_idle)} | ${mib(f.rss_kb_games)} | ${mib(f.rss_kb_spectators)} | ${fmt(f.kb_per_connection, 1)} | ${fmt(r.cpu_s?.server, 2)} |`,
    );
  }
  say();
  goals.push(['10,000 spectator connections on one process', most >= 10000, `${most} subscribed`]);
}

// ---- sprint (loadgen sprint)
const sprint = files
  .filter((f) => /^sprint-\d+\.json$/.test(f))
  .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
  .map(load)
  .filter(Boolean);
if (sprint.length) {
  say(
    'Sprint: 4-seat Galactic Sprint games, sealed orders (GET .../legal, PUT .../orders/{window}). Reveal: from',
  );
  say(
    "sending a window's last order to a seat's WebSocket delivering the version without the window; every seat:",
  );
  say('the last of the four seats, per window.');
  say();
  say(
    '| games | orders/s | order p50 ms | p99 | windows | reveal, every seat p50 ms | p95 | p99 | 4-seat windows p50 | p95 | p99 | server CPU us/order | + PostgreSQL | errors |',
  );
  say('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of sprint) {
    const a = r.reveal_all_seats_ms,
      f = r.reveal_all_seats_ms_4_seat_windows,
      e = r.errors ?? {};
    const errs = (e.order ?? 0) + (e.legal ?? 0) + (e.setup ?? 0) + (e.register ?? 0) + (e.ws ?? 0);
    say(
      `| ${r.games} | ${fmt(r.orders_per_s, 1)} | ${fmt(r.order_http_ms?.p50, 1)} | ${fmt(r.order_http_ms?.p99, 1)} ` +
        `| ${r.windows_revealed} | ${fmt(a?.p50, 1)} | ${fmt(a?.p95, 1)} | ${fmt(a?.p99, 1)} ` +
        `| ${fmt(f?.p50, 1)} | ${fmt(f?.p95, 1)} | ${fmt(f?.p99, 1)} ` +
        `| ${fmt(r.cpu_per_order_us?.server)} | ${fmt(r.cpu_per_order_us?.server_postgres)} | ${errs} |`,
    );
  }
  say();
}

if (goals.length) {
  say('Goals:');
  say();
  say('| goal | met | measured |');
  say('|---|---|---|');
  for (const [g, ok, v] of goals) say(`| ${g} | ${ok ? 'yes' : '**no**'} | ${v} |`);
  say();
}
console.log(lines.join('\n'));
