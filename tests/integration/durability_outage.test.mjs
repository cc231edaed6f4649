// durability_outage.test.mjs - nothing acknowledged is lost, nothing is
// applied twice, with PostgreSQL stopped in immediate mode mid-way through
// about a thousand concurrent plays and orders across 50 games: the server
// answers 503 at once, and once the database is back clients retry with
// their idempotency keys (lib/durability_drill.mjs says how the drill
// checks). The kill -9 drill is durability.test.mjs.
// Run with no other test file beside it (it stops and starts the shared PostgreSQL):
// tests/run.sh: alone
import { test } from 'node:test';
import { drill, pg } from './lib/durability_drill.mjs';

test(
  'Postgres stopped in immediate mode mid-way: 503 fast, then nothing lost',
  {
    timeout: 240000,
    skip: !process.env.CONCLAVE_PRIVATE_PG && 'needs the private Postgres started by tests/run.sh',
  },
  async () => {
    try {
      const r = await drill('pg');
      console.log(
        `# outage drill: ${r.acks} acknowledged, disrupted at ${r.before} inputs, ${r.acked} compared before clients resumed, late inputs ${r.lateInputs}`,
      );
    } finally {
      await pg('start');
    }
  },
);
