// api.js - the REST client: JSON in and out, the bearer token, and
// application/problem+json errors turned into ApiError (status, title,
// detail, field). Only the public API of API.md is used.

const TOKEN_KEY = 'conclave.token';
const NAME_KEY = 'conclave.name';

export class ApiError extends Error {
  constructor(status, problem) {
    const detail = (problem && (problem.detail || problem.title)) || `HTTP ${status}`;
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.title = (problem && problem.title) || '';
    this.detail = detail;
    this.field = (problem && problem.field) || null;
    this.problem = problem || null;
  }
}

// The session this browser remembers (localStorage): token and name.
export const session = {
  get token() {
    return localStorage.getItem(TOKEN_KEY);
  },
  get name() {
    return localStorage.getItem(NAME_KEY);
  },
  set(token, name) {
    localStorage.setItem(TOKEN_KEY, token);
    if (name) localStorage.setItem(NAME_KEY, name);
    else localStorage.removeItem(NAME_KEY);
  },
  clear() {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(NAME_KEY);
  },
};

// A random key for Idempotency-Key headers (crypto.randomUUID needs a
// secure context, which plain http on a LAN address is not).
export function randomKey() {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

// request(method, path, {body, headers, auth}) -> parsed JSON (or null).
// Throws ApiError for HTTP errors, and ApiError with status 0 when the
// server cannot be reached.
export async function request(method, path, { body, headers = {}, auth = true } = {}) {
  const h = { accept: 'application/json, application/problem+json', ...headers };
  const token = session.token;
  if (auth && token) h.authorization = `Bearer ${token}`;
  let payload;
  if (body !== undefined) {
    h['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, { method, headers: h, body: payload, cache: 'no-store' });
  } catch {
    throw new ApiError(0, {
      title: 'Offline',
      detail: 'The server cannot be reached; retrying will help once it is back.',
    });
  }
  if (res.status === 204 || res.status === 304) return null;
  const text = await res.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

const enc = encodeURIComponent;

export const api = {
  createPlayer: (name, password) =>
    request('POST', '/api/v1/players', {
      body: password ? { name, password } : { name },
      auth: false,
    }),
  signIn: (name, password) =>
    request('POST', '/api/v1/sessions', { body: { name, password }, auth: false }),
  signOut: () => request('DELETE', '/api/v1/sessions/current'),
  me: () => request('GET', '/api/v1/me'),
  chooseInRecord: (key, choice) =>
    request('POST', `/api/v1/me/records/${enc(key)}/choice`, { body: choice }),
  rulesets: () => request('GET', '/api/v1/rulesets', { auth: false }),
  lobbies: (status = 'open', ruleset) =>
    request(
      'GET',
      `/api/v1/lobbies?status=${enc(status)}${ruleset ? `&ruleset=${enc(ruleset)}` : ''}`,
    ),
  lobby: (id, code) =>
    request('GET', `/api/v1/lobbies/${enc(id)}${code ? `?code=${enc(code)}` : ''}`),
  createLobby: (body) => request('POST', '/api/v1/lobbies', { body }),
  join: (id, body = {}) => request('POST', `/api/v1/lobbies/${enc(id)}/seats`, { body }),
  leave: (id) => request('DELETE', `/api/v1/lobbies/${enc(id)}/seats/me`),
  // The host empties a seat (not their own) before the start.
  clearSeat: (id, seat) => request('DELETE', `/api/v1/lobbies/${enc(id)}/seats/${enc(seat)}`),
  addBot: (id, body = {}) => request('POST', `/api/v1/lobbies/${enc(id)}/bots`, { body }),
  start: (id) => request('POST', `/api/v1/lobbies/${enc(id)}/start`),
  game: (id) => request('GET', `/api/v1/games/${enc(id)}`),
  legal: (id) => request('GET', `/api/v1/games/${enc(id)}/legal`),
  // The rematch of a finished game: POST makes it (or returns the one
  // another player made), GET finds it; {lobby, invite_code, created}.
  rematch: (id) => request('POST', `/api/v1/games/${enc(id)}/rematch`),
  findRematch: (id) => request('GET', `/api/v1/games/${enc(id)}/rematch`),
  log: (id, after = 0) => request('GET', `/api/v1/games/${enc(id)}/log?after=${after}`),
  putOrder: (id, window, order) =>
    request('PUT', `/api/v1/games/${enc(id)}/orders/${enc(window)}`, { body: order }),
  withdrawOrder: (id, window) =>
    request('DELETE', `/api/v1/games/${enc(id)}/orders/${enc(window)}`),
  // Orders in parts (windows with "parts": true in legal): set or remove one
  // member of the held order; both answer {window, seat, version, receipt,
  // parts} for the whole order as it now stands (receipt null once the last
  // part is gone and the order withdrawn).
  putOrderPart: (id, window, key, value) =>
    request('PUT', `/api/v1/games/${enc(id)}/orders/${enc(window)}/parts/${enc(key)}`, {
      body: value,
    }),
  deleteOrderPart: (id, window, key) =>
    request('DELETE', `/api/v1/games/${enc(id)}/orders/${enc(window)}/parts/${enc(key)}`),
  // Priority windows: the seat's response rule ({until, stop_if_targeted})
  // and undo with the other seats' consent.
  setResponseRule: (id, until, stopIfTargeted = false) =>
    request('PUT', `/api/v1/games/${enc(id)}/response-rule`, {
      body: { until, stop_if_targeted: stopIfTargeted },
    }),
  setHold: (id, hold) =>
    request('PUT', `/api/v1/games/${enc(id)}/response-rule`, { body: { hold } }),
  undo: (id) => request('POST', `/api/v1/games/${enc(id)}/undo`),
  undoConsent: (id) => request('POST', `/api/v1/games/${enc(id)}/undo/consent`),
  undoRefuse: (id) => request('POST', `/api/v1/games/${enc(id)}/undo/refuse`),
  play: (id, body, key = randomKey()) =>
    request('POST', `/api/v1/games/${enc(id)}/plays`, {
      body,
      headers: { 'Idempotency-Key': key },
    }),
};
