// options_schema.test.mjs - a ruleset's options are declared once (an
// engine_option table): the JSON Schema GET /api/v1/rulesets gives clients
// must accept exactly what the server accepts. For every ruleset, samples
// (valid values, wrong types, out of range, unknown fields, null...) are
// judged by Ajv against the published schema and by the server creating a
// lobby with them at every seat count the ruleset allows; the answers must
// agree. Rules on the seat count (Sprint's solitaire) are not expressible in
// a schema: a sample counts as accepted by the server when some seat count
// accepts it, so each sample here sets one option.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020.js';
import { createDatabase, dropDatabase, startServer } from './lib/server.mjs';
import { client, newPlayer, NO_LIMITS } from './lib/api.mjs';

let db, srv, call, host;

before(async () => {
  db = createDatabase('opts');
  srv = await startServer({ db, env: NO_LIMITS });
  call = client(srv.url);
  host = await newPlayer(call, { prefix: 'opt' });
});

after(async () => {
  await srv?.stop();
  if (db) dropDatabase(db);
});

// Samples for one property, from its schema and beyond it.
function propertySamples(name, p) {
  const out = [null, 'text', {}, [], true, 2.5, -1, 0];
  if (p.type === 'integer') {
    out.push(p.minimum, p.maximum, p.minimum - 1, p.maximum + 1, p.default, String(p.default));
  }
  if (p.type === 'boolean') out.push(false, 1, 'true');
  if (p.type === 'array') {
    const names = p.items.enum;
    out.push(
      [names[0]],
      names.slice(0, p.maxItems),
      names.slice(0, p.maxItems + 1),
      [names[0], names[0]],
      ['no-such-name'],
      [1],
      [null],
      names[0],
    );
  }
  return out.map((v) => ({ [name]: v }));
}

function samples(schema) {
  const out = [{}, { zzz: 1 }, { zzz: null }, { '': 0 }];
  for (const [name, p] of Object.entries(schema.properties ?? {}))
    out.push(...propertySamples(name, p));
  return out;
}

// Does the server accept options at some seat count? Any answer but 201
// or 422 is a failure of its own.
async function serverAccepts(rs, options) {
  for (let seats = rs.min_seats; seats <= rs.max_seats; seats++) {
    const r = await call('POST', '/api/v1/lobbies', {
      token: host.token,
      body: { ruleset: rs.id, seats, options },
    });
    assert.ok(
      r.status === 201 || r.status === 422,
      `${rs.id} ${JSON.stringify(options)}: ${r.status} ${r.text}`,
    );
    if (r.status === 201) return true;
    assert.match(r.body.field ?? '', /^(options|seats)/, r.text);
  }
  return false;
}

test('every ruleset: the published options schema accepts exactly what the server accepts', async () => {
  const list = await call('GET', '/api/v1/rulesets');
  assert.equal(list.status, 200);
  assert.ok(list.body.length >= 3);
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  let compared = 0;
  for (const rs of list.body) {
    const validate = ajv.compile(rs.options);
    for (const options of samples(rs.options)) {
      const schemaSays = validate(options);
      const serverSays = await serverAccepts(rs, options);
      assert.equal(
        serverSays,
        schemaSays,
        `${rs.id} options ${JSON.stringify(options)}: schema ${schemaSays ? 'accepts' : 'rejects'} ` +
          `(${ajv.errorsText(validate.errors)}), server ${serverSays ? 'accepts' : 'rejects'}`,
      );
      compared++;
    }
  }
  assert.ok(compared > 40, `only ${compared} samples`);
});
