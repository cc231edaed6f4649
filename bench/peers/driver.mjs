// driver.mjs - the peer's load generator: the workload of `loadgen play`
// against a boardgame.io server, through its own protocol. Many games in
// one process; every player has its own socket.io connection (websocket
// transport) and its own keep-alive HTTP connection for the lobby API.
//
//   node driver.mjs --port P --games N [--duration S] [--server-pid PID]
//                   [--label TEXT] [--json FILE]
//
// A game: POST /games/tic-tac-toe/create, two POST .../join, then both
// sockets "sync" to the match; a player moves ("update" with MAKE_MOVE
// clickCell) only once its own socket has delivered the state in which it
// is that player's turn. Move latency: from emitting the move to the
// opponent's socket delivering a state that includes it (a higher
// _stateID), exactly as loadgen measures it. Finished games are followed
// by new ones until the duration is over. Output: the JSON object loadgen
// prints (stdout and --json) and one human line (stderr).
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';

const { io } = createRequire(import.meta.url)('socket.io-client');

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => {
    if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1]]);
    return acc;
  }, []),
);
const PORT = Number(args.port);
const GAMES = Number(args.games || 10);
const DURATION = Number(args.duration || 20);
const SERVER_PID = Number(args['server-pid'] || 0);
const GAME = 'tic-tac-toe';
if (!PORT || !GAMES) {
  console.error('usage: node driver.mjs --port P --games N [--duration S] [--server-pid PID] [--json FILE]');
  process.exit(2);
}

const now = () => performance.now() / 1e3;
const HZ = 100; // USER_HZ of /proc/PID/stat on Linux

function procCpu(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / HZ;
  } catch {
    return 0;
  }
}
function procKb(pid, field) {
  try {
    const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+)`, 'm'));
    return m ? Number(m[1]) : -1;
  } catch {
    return -1;
  }
}
function selfCpu() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

class Samples {
  constructor() {
    this.v = [];
  }
  add(ms) {
    this.v.push(ms);
  }
  json() {
    if (!this.v.length) return null;
    const v = Float64Array.from(this.v).sort();
    const pct = (p) => v[Math.min(v.length, Math.max(1, Math.ceil(p * v.length))) - 1];
    const r3 = (x) => Math.round(x * 1000) / 1000;
    const mean = v.reduce((a, b) => a + b, 0) / v.length;
    return { n: v.length, p50: r3(pct(0.5)), p90: r3(pct(0.9)), p99: r3(pct(0.99)), max: r3(v[v.length - 1]), mean: r3(mean) };
  }
}

const R = {
  t0: 0, tEnd: 0, stopping: false,
  moves: 0, movesTotal: 0, gamesWin: 0,
  errors: { play: 0, setup: 0, register: 0, ws: 0, ws_lost: 0, http_transport: 0, gaps: 0, resubscribes: 0, version_mismatch: 0 },
  moveLat: new Samples(), setupLat: new Samples(),
  messages: 0,
  retries: 0,
};
const inWindow = (t) => R.t0 > 0 && t >= R.t0 && t < R.tEnd;
function complain(kind, what) {
  R.errors[kind]++;
  if (R.errors[kind] <= 3) console.error(`driver: ${kind}: ${what}`);
}

// One keep-alive agent per player, one socket each: like one browser each.
// A request on a reused connection that the server closed meanwhile (Node's
// 5 s keep-alive timeout) fails with ECONNRESET; like a browser, try it once
// more on a new connection, and count it.
async function post(agent, path, body) {
  const first = await post1(agent, path, body);
  if (first.status !== 0 || !/ECONNRESET|EPIPE|socket hang up/.test(first.text)) return first;
  R.retries++;
  return post1(agent, path, body);
}
function post1(agent, path, body) {
  return new Promise((resolve) => {
    const data = JSON.stringify(body);
    const req = http.request(
      { host: '127.0.0.1', port: PORT, path, method: 'POST', agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let json = null;
          try { json = JSON.parse(text); } catch { /* not JSON */ }
          resolve({ status: res.statusCode, json, text });
        });
      },
    );
    req.on('error', (e) => resolve({ status: 0, json: null, text: String(e) }));
    req.end(data);
  });
}

class Player {
  constructor(game, seat) {
    this.game = game;
    this.seat = seat;
    this.id = String(seat);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    this.state = null;
    this.acted = -1;
    this.sawOver = false;
    this.credentials = null;
    this.socket = io(`http://127.0.0.1:${PORT}/${GAME}`, {
      transports: ['websocket'], forceNew: true, reconnection: false,
    });
    this.socket.on('sync', (matchID, info) => this.onState(matchID, info.state, true));
    this.socket.on('update', (matchID, state) => this.onState(matchID, state, false));
    this.socket.on('patch', () => complain('ws', 'unexpected patch message'));
    this.socket.on('matchData', () => { R.messages++; });
    this.socket.on('disconnect', (why) => {
      if (!R.stopping) complain('ws_lost', `player socket: ${why}`);
    });
    this.socket.on('connect_error', (e) => complain('ws_lost', `connect: ${e.message}`));
  }
  sync(matchID) {
    this.state = null;
    this.acted = -1;
    this.sawOver = false;
    this.socket.emit('sync', matchID, this.id, this.credentials, 2);
  }
  onState(matchID, state, isSync) {
    R.messages++;
    const g = this.game;
    if (matchID !== g.matchID) return; // the previous match, still in flight
    if (this.state && state._stateID < this.state._stateID) return;
    this.state = state;
    if (isSync && g.phase === 'sync') {
      this.synced = true;
      if (g.players.every((p) => p.synced)) g.started();
      return;
    }
    if (g.pend && this.seat !== g.pendSeat && state._stateID > g.pendV0) {
      if (inWindow(g.pendT)) R.moveLat.add((now() - g.pendT) * 1e3);
      g.pend = false;
      R.movesTotal++;
      if (inWindow(g.pendT)) R.moves++;
    }
    if (state.ctx.gameover !== undefined) this.sawOver = true;
    g.checkFinished();
    this.maybePlay();
  }
  maybePlay() {
    const g = this.game;
    const s = this.state;
    if (g.phase !== 'play' || R.stopping || !s || g.pend || s._stateID <= this.acted) return;
    if (s.ctx.gameover !== undefined || s.ctx.currentPlayer !== this.id) return;
    const free = [];
    s.G.cells.forEach((c, i) => c === null && free.push(i));
    if (!free.length) return;
    const cell = free[Math.floor(Math.random() * free.length)];
    this.acted = s._stateID;
    g.pend = true;
    g.pendSeat = this.seat;
    g.pendV0 = s._stateID;
    g.pendT = now();
    this.socket.emit(
      'update',
      { type: 'MAKE_MOVE', payload: { type: 'clickCell', args: [cell], playerID: this.id, credentials: this.credentials } },
      s._stateID, g.matchID, this.id,
    );
  }
}

class Game {
  constructor(i) {
    this.idx = i;
    this.players = [new Player(this, 0), new Player(this, 1)];
    this.matchID = null;
    this.phase = 'idle';
    this.startedOnce = false;
  }
  async setup() {
    if (R.stopping) return;
    this.phase = 'lobby';
    this.tSetup = now();
    const [p0, p1] = this.players;
    const c = await post(p0.agent, `/games/${GAME}/create`, { numPlayers: 2 });
    if (c.status !== 200 || !c.json?.matchID) return this.failed('create', c);
    const matchID = c.json.matchID;
    for (const p of this.players) {
      const j = await post(p.agent, `/games/${GAME}/${matchID}/join`, { playerID: p.id, playerName: `p${this.idx}_${p.id}` });
      if (j.status !== 200 || !j.json?.playerCredentials) return this.failed('join', j);
      p.credentials = j.json.playerCredentials;
    }
    this.matchID = matchID;
    this.phase = 'sync';
    this.pend = false;
    for (const p of this.players) p.synced = false;
    p0.sync(matchID);
    p1.sync(matchID);
  }
  failed(what, res) {
    if (res.status === 0) R.errors.http_transport++;
    complain('setup', `${what}: ${res.status} ${res.text.slice(0, 200)}`);
    this.phase = 'idle';
    setTimeout(() => this.setup(), 200);
  }
  started() {
    this.phase = 'play';
    if (inWindow(this.tSetup)) R.setupLat.add((now() - this.tSetup) * 1e3);
    this.startedOnce = true;
    this.players[0].maybePlay();
    this.players[1].maybePlay();
  }
  checkFinished() {
    if (this.phase === 'play' && this.players.every((p) => p.sawOver) && !this.pend) {
      this.phase = 'idle';
      if (inWindow(now())) R.gamesWin++;
      this.setup();
    }
  }
}

const rssIdle = SERVER_PID ? procKb(SERVER_PID, 'VmRSS') : -1;
const tStart = now();
const games = Array.from({ length: GAMES }, (_, i) => new Game(i));
await Promise.all(
  games.flatMap((g) => g.players.map((p) => new Promise((resolve) => {
    if (p.socket.connected) return resolve();
    p.socket.once('connect', resolve);
    p.socket.once('connect_error', resolve);
  }))),
);
for (const g of games) g.setup();
while (!games.every((g) => g.startedOnce) && now() - tStart < 120) await new Promise((r) => setTimeout(r, 5));

R.t0 = now();
R.tEnd = R.t0 + DURATION;
const cpu0 = { server: SERVER_PID ? procCpu(SERVER_PID) : 0, self: selfCpu() };
await new Promise((r) => setTimeout(r, DURATION * 1000));
const cpu1 = { server: SERVER_PID ? procCpu(SERVER_PID) : 0, self: selfCpu() };
R.stopping = true;
const tStop = now();
while (games.some((g) => g.pend) && now() - tStop < 5) await new Promise((r) => setTimeout(r, 5));

const secs = R.tEnd - R.t0;
const srv = cpu1.server - cpu0.server;
const self = cpu1.self - cpu0.self;
const perMove = (c) => (R.moves ? Math.round((c / R.moves) * 1e7) / 10 : 0);
const r2 = (x) => Math.round(x * 100) / 100;
const out = {
  target: 'boardgame.io',
  mode: 'play',
  label: args.label,
  games: GAMES,
  seconds: Math.round(secs * 1000) / 1000,
  moves: R.moves,
  moves_per_s: Math.round((R.moves / secs) * 10) / 10,
  games_finished: R.gamesWin,
  move_latency_ms: R.moveLat.json(),
  play_http_ms: null,
  setup_ms: R.setupLat.json(),
  errors: R.errors,
  gets: 0,
  cpu_s: { server: r2(srv), loadgen: r2(self) },
  cpu_per_move_us: { server: perMove(srv), loadgen: perMove(self) },
  rss_kb: {
    idle: rssIdle,
    end: SERVER_PID ? procKb(SERVER_PID, 'VmRSS') : -1,
    hwm: SERVER_PID ? procKb(SERVER_PID, 'VmHWM') : -1,
  },
  client: { ws_messages_in: R.messages, http_retries_after_reset: R.retries },
};
const text = JSON.stringify(out);
console.log(text);
if (args.json) writeFileSync(args.json, text + '\n');
const lat = out.move_latency_ms || { p50: 0, p99: 0, max: 0 };
console.error(
  `boardgame.io play: ${GAMES} games, ${secs.toFixed(1)} s: ${R.moves} moves (${out.moves_per_s.toFixed(0)}/s), ` +
    `${R.gamesWin} games; move latency p50 ${lat.p50.toFixed(2)} ms p99 ${lat.p99.toFixed(2)} ms max ${lat.max.toFixed(2)} ms; ` +
    `setup p50 ${(out.setup_ms?.p50 ?? 0).toFixed(1)} ms; server CPU ${out.cpu_s.server.toFixed(2)} s ` +
    `(${out.cpu_per_move_us.server.toFixed(0)} us/move); driver ${out.cpu_s.loadgen.toFixed(2)} s; ` +
    `errors ${R.errors.play + R.errors.setup + R.errors.ws}; peak RSS ${out.rss_kb.hwm} KiB`,
);
for (const g of games) for (const p of g.players) p.socket.close();
process.exit(0);
