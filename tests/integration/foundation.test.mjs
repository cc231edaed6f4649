// foundation.test.mjs - the server skeleton against the real Postgres:
// health, readiness, metrics, migrations (once, in order, concurrently),
// and graceful shutdown. Readiness through a database outage is
// foundation_outage.test.mjs, which runs alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { ROOT, BIN, createDatabase, dropDatabase, startServer, http, psql } from './lib/server.mjs';

const run = promisify(execFile);
const sqlFiles = fs
  .readdirSync(path.join(ROOT, 'sql'))
  .filter((f) => /^\d{3}_.*\.sql$/.test(f))
  .sort();

test('healthz, readyz and metrics answer on a fresh database', async () => {
  const db = createDatabase('found');
  const srv = await startServer({ db });
  try {
    const h = await http(srv.url, 'GET', '/healthz');
    assert.equal(h.status, 200);
    assert.equal(h.body.status, 'ok');
    const r = await http(srv.url, 'GET', '/readyz');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.migration, Number(sqlFiles.at(-1).slice(0, 3)));
    const nf = await http(srv.url, 'GET', '/api/v1/nothing-here');
    assert.equal(nf.status, 404);
    assert.equal(nf.headers.get('content-type'), 'application/problem+json');
    assert.equal(nf.body.status, 404);
    const m = await http(srv.url, 'GET', '/metrics');
    assert.equal(m.status, 200);
    assert.match(
      m.text,
      /conclave_http_requests_total\{route="\/healthz",method="GET",status="200"\} 1\n/,
    );
    assert.match(
      m.text,
      /conclave_http_request_seconds_bucket\{route="\/readyz",method="GET",status="200",le="\+Inf"\} 1\n/,
    );
    assert.match(m.text, /route="unmatched",method="GET",status="404"/);
  } finally {
    await srv.stop();
    dropDatabase(db);
  }
});

test('conclave --help and every subcommand --help work', async () => {
  const top = await run(BIN, ['--help']);
  for (const cmd of ['serve', 'migrate', 'selfplay', 'replay']) {
    assert.match(top.stdout, new RegExp(`\\b${cmd}\\b`));
    const sub = await run(BIN, [cmd, '--help']);
    assert.match(sub.stdout, /usage: conclave/);
  }
  await assert.rejects(run(BIN, ['frobnicate']), (e) => e.code === 2);
  await assert.rejects(
    run(BIN, ['serve', '--no-such-flag']),
    (e) => e.code === 2 && /unknown option/.test(e.stderr),
  );
});

test('migrations apply once, in order, even from concurrent processes', async () => {
  const db = createDatabase('mig');
  try {
    const results = await Promise.all(
      [0, 1, 2, 3].map(() => run(BIN, ['migrate'], { env: { ...process.env, DATABASE_URL: db } })),
    );
    const appliedCounts = results.map((r) => {
      const done = r.stderr
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .find((e) => e.event === 'migrations_done');
      return done.applied;
    });
    // Exactly one process applied everything; the others found nothing to do.
    assert.deepEqual(appliedCounts.sort(), [0, 0, 0, sqlFiles.length]);
    const rows = psql(
      db,
      'SELECT version, name FROM schema_migrations ORDER BY applied_at, version',
    );
    assert.deepEqual(
      rows.split('\n').map((l) => l.split('|')[1]),
      sqlFiles,
    );
    const again = await run(BIN, ['migrate'], { env: { ...process.env, DATABASE_URL: db } });
    assert.match(again.stderr, /"applied":0/);
  } finally {
    dropDatabase(db);
  }
});

test('migrations run in number order, and a failing one rolls back and stops', async () => {
  const db = createDatabase('mig');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conclave-sql-'));
  try {
    // Written out of order on disk; each depends on the one before.
    fs.writeFileSync(
      path.join(dir, '010_third.sql'),
      'ALTER TABLE t ADD COLUMN c int; UPDATE t SET c = a * 10;',
    );
    fs.writeFileSync(path.join(dir, '002_second.sql'), 'INSERT INTO t (a) VALUES (1), (2);');
    fs.writeFileSync(path.join(dir, '001_first.sql'), 'CREATE TABLE t (a int);');
    const env = { ...process.env, DATABASE_URL: db, CONCLAVE_SQL_DIR: dir };
    await run(BIN, ['migrate'], { env });
    assert.equal(psql(db, "SELECT string_agg(c::text, ',' ORDER BY a) FROM t"), '10,20');
    assert.equal(
      psql(db, "SELECT string_agg(version::text, ',' ORDER BY version) FROM schema_migrations"),
      '1,2,10',
    );

    fs.writeFileSync(
      path.join(dir, '011_bad.sql'),
      'INSERT INTO t (a) VALUES (3); SELECT no_such_function();',
    );
    fs.writeFileSync(path.join(dir, '012_after.sql'), 'INSERT INTO t (a) VALUES (4);');
    await assert.rejects(
      run(BIN, ['migrate'], { env }),
      (e) => e.code === 1 && /011_bad\.sql/.test(e.stderr),
    );
    assert.equal(
      psql(db, 'SELECT count(*) FROM t'),
      '2',
      'the failed migration left no rows and later ones did not run',
    );
    assert.equal(psql(db, 'SELECT max(version) FROM schema_migrations'), '10');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    dropDatabase(db);
  }
});

test('SIGTERM and SIGINT stop accepting, finish in-flight requests, exit 0', async () => {
  const db = createDatabase('stop');
  try {
    for (const signal of ['SIGTERM', 'SIGINT']) {
      const srv = await startServer({ db });
      // An in-flight request: headers and half the body sent before the signal.
      const sock = net.connect(srv.httpPort, '127.0.0.1');
      await new Promise((r) => sock.on('connect', r));
      let reply = '';
      sock.on('data', (d) => (reply += d));
      const body = '{"name":"someone"}';
      sock.write(
        `POST /api/v1/no-such-route HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`,
      );
      await new Promise((r) => setTimeout(r, 200));
      srv.proc.kill(signal);
      await new Promise((r) => setTimeout(r, 300));
      // New connections are refused while the old one finishes.
      await assert.rejects(fetch(srv.url + '/healthz'));
      sock.write(body.slice(5));
      await new Promise((r) => sock.on('close', r));
      assert.match(reply, /^HTTP\/1\.1 404/);
      const { code } = await srv.exited;
      assert.equal(code, 0, srv.lines.join('\n'));
      assert.ok(srv.lines.some((l) => l.includes('"event":"stopped"')));
    }
  } finally {
    dropDatabase(db);
  }
});
