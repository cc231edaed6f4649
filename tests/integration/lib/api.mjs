// api.mjs - helpers for the REST API tests: a client that checks every
// answer against api/openapi.yaml (the status must be documented for the
// operation, the content type must match, and the body must validate against
// the documented schema), plus players, lobbies and games set up in one call.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import YAML from 'yaml';
import Ajv2020 from 'ajv/dist/2020.js';
import { ROOT, http, canonicalJson } from './server.mjs';

export const SPEC_PATH = path.join(ROOT, 'api', 'openapi.yaml');
export const spec = YAML.parse(fs.readFileSync(SPEC_PATH, 'utf8'));

// Fast servers for tests that send many requests from one address.
export const NO_LIMITS = { CONCLAVE_RATE: '1000000', CONCLAVE_RATE_BURST: '1000000' };

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ $id: 'spec.json', paths: spec.paths, components: spec.components });

const escape = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const templates = Object.keys(spec.paths).map((p) => ({
  path: p,
  re: new RegExp('^' + p.replace(/\{[^}]+\}/g, '[^/]+') + '$'),
}));

// The spec's path template for a concrete path (query string ignored).
export function specPathOf(p) {
  const bare = p.split('?')[0];
  return templates.find((t) => t.re.test(bare))?.path;
}

function resolve(obj) {
  let pointer = null;
  while (obj && obj.$ref) {
    pointer = obj.$ref;
    obj = obj.$ref
      .split('/')
      .slice(1)
      .reduce((o, k) => o[k.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
  }
  return { obj, pointer };
}

const validators = new Map();
function validatorFor(pointer) {
  if (!validators.has(pointer)) validators.set(pointer, ajv.getSchema('spec.json' + pointer));
  return validators.get(pointer);
}

// Check one answer against the spec. Throws with a readable message.
export function checkAgainstSpec(method, p, res) {
  const tpl = specPathOf(p);
  assert.ok(tpl, `${method} ${p}: path not in the spec`);
  const op = spec.paths[tpl][method.toLowerCase()];
  assert.ok(op, `${method} ${tpl}: method not in the spec`);
  const code = String(res.status);
  assert.ok(
    op.responses[code],
    `${method} ${tpl}: status ${code} is not documented (${res.text.slice(0, 300)})`,
  );
  const { obj: response, pointer } = resolve(op.responses[code]);
  const base = pointer ?? `#/paths/${escape(tpl)}/${method.toLowerCase()}/responses/${code}`;
  const type = (res.headers.get('content-type') || '').split(';')[0].trim();
  if (!response.content) {
    assert.equal(res.text, '', `${method} ${tpl} ${code}: expected no body`);
    return;
  }
  assert.ok(
    response.content[type],
    `${method} ${tpl} ${code}: content type ${type} not documented`,
  );
  if (type.endsWith('json')) {
    const validate = validatorFor(`${base}/content/${escape(type)}/schema`);
    assert.ok(validate, `${method} ${tpl} ${code}: no schema`);
    if (!validate(res.body)) {
      assert.fail(
        `${method} ${p} ${code}: body does not match the spec: ${ajv.errorsText(validate.errors)}\n${res.text.slice(0, 500)}`,
      );
    }
  }
  for (const [name, h] of Object.entries(response.headers || {})) {
    if (['Retry-After', 'ETag'].includes(name)) {
      assert.ok(res.headers.get(name), `${method} ${tpl} ${code}: header ${name} missing`);
    }
    void h;
  }
}

// A client bound to a server: call(method, path, opts) -> {status, headers, body, text}.
// opts: token, body, raw, headers, check (default true: validate against the spec).
export function client(base) {
  const seen = [];
  async function call(method, p, opts = {}) {
    const res = await http(base, method, p, opts);
    if (opts.check !== false) checkAgainstSpec(method, p, res);
    seen.push({ method, path: specPathOf(p), status: res.status });
    return res;
  }
  call.seen = seen;
  return call;
}

let counter = 0;
export function uniqueName(prefix = 'p') {
  counter += 1;
  return `${prefix}${process.pid % 10000}_${counter}`.slice(0, 24);
}

// A player (with a password unless guest); returns {id, name, token, password}.
export async function newPlayer(call, { guest = false, prefix = 'p' } = {}) {
  const name = uniqueName(prefix);
  const password = guest ? undefined : `pw-${name}-secret`;
  const r = await call('POST', '/api/v1/players', {
    body: password ? { name, password } : { name },
  });
  assert.equal(r.status, 201, r.text);
  return { ...r.body, password };
}

// A lobby hosted by host; others join in order. Returns the lobby JSON.
export async function newLobby(call, host, body, joiners = []) {
  const r = await call('POST', '/api/v1/lobbies', { token: host.token, body });
  assert.equal(r.status, 201, r.text);
  let lobby = r.body;
  for (const p of joiners) {
    const j = await call('POST', `/api/v1/lobbies/${lobby.id}/seats`, {
      token: p.token,
      body: lobby.invite_code ? { code: lobby.invite_code } : {},
    });
    assert.equal(j.status, 200, j.text);
    lobby = j.body;
  }
  return lobby;
}

// A started game between players (seat order), for ruleset; returns its id.
export async function newGame(call, ruleset, players, { options, bots = [] } = {}) {
  const [host, ...rest] = players;
  const lobby = await newLobby(
    call,
    host,
    { ruleset, seats: players.length + bots.length, ...(options ? { options } : {}) },
    rest,
  );
  for (const level of bots) {
    const b = await call('POST', `/api/v1/lobbies/${lobby.id}/bots`, {
      token: host.token,
      body: { level },
    });
    assert.equal(b.status, 200, b.text);
  }
  const s = await call('POST', `/api/v1/lobbies/${lobby.id}/start`, { token: host.token });
  assert.equal(s.status, 201, s.text);
  return s.body.game;
}

// The receipt of API.md: SHA-256 over five length-prefixed parts.
export function receiptOf(gameId, window, seat, order, nonceHex) {
  const h = createHash('sha256');
  for (const part of [
    Buffer.from(gameId),
    Buffer.from(window),
    Buffer.from(String(seat)),
    Buffer.from(canonicalJson(order)),
    Buffer.from(nonceHex, 'hex'),
  ]) {
    const len = Buffer.alloc(8);
    len.writeBigUInt64BE(BigInt(part.length));
    h.update(len);
    h.update(part);
  }
  return h.digest('hex');
}
