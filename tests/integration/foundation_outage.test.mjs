// foundation_outage.test.mjs - readiness through a database outage: /readyz
// answers 503 at once while the private PostgreSQL is stopped, /healthz stays
// 200, and /readyz is 200 again once it is back. The rest of the server's
// skeleton is foundation.test.mjs.
// Run with no other test file beside it (it stops and starts the shared PostgreSQL):
// tests/run.sh: alone
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { ROOT, createDatabase, dropDatabase, startServer, http, waitFor } from './lib/server.mjs';

const run = promisify(execFile);

test(
  'readyz fails fast while the database is down and recovers when it returns',
  {
    skip: !process.env.CONCLAVE_PRIVATE_PG && 'needs the private Postgres started by tests/run.sh',
  },
  async () => {
    const db = createDatabase('ready');
    const srv = await startServer({ db });
    const pg = (cmd) => run('bash', [path.join(ROOT, 'scripts/pg.sh'), ...cmd], { cwd: ROOT });
    try {
      assert.equal((await http(srv.url, 'GET', '/readyz')).status, 200);
      await pg(['stop']);
      // The probe's answer is cached for 250 ms, so the first answers after
      // the stop may still be 200; then 503, each answered (not held until a
      // connect timeout). The generous limit only catches a hang: no clock
      // is asserted.
      const seen = [];
      await waitFor(
        async () => {
          const r = await http(srv.url, 'GET', '/readyz');
          seen.push(r.status);
          return r.status === 503;
        },
        { timeout: 20000, interval: 50, what: 'readyz 503 while the database is down' },
      );
      assert.deepEqual(
        [...new Set(seen)].filter((s) => s !== 200 && s !== 503),
        [],
        `statuses ${seen}`,
      );
      assert.equal(
        (await http(srv.url, 'GET', '/healthz')).status,
        200,
        'the process itself stays up',
      );
      await pg(['start']);
      await waitFor(async () => (await http(srv.url, 'GET', '/readyz')).status === 200, {
        timeout: 15000,
        what: 'readyz 200 after restart',
      });
    } finally {
      await pg(['start']);
      await srv.stop();
      dropDatabase(db);
    }
  },
);
