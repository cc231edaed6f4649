// durability.test.mjs - nothing acknowledged is lost, nothing is applied
// twice: about a thousand concurrent plays and orders over HTTP across 50
// games, with the server killed (SIGKILL) mid-way; clients retry unanswered
// requests with their idempotency keys (lib/durability_drill.mjs says how
// the drill checks). The same drill with PostgreSQL stopped mid-way is
// durability_outage.test.mjs, which runs alone.
import { test } from 'node:test';
import { drill } from './lib/durability_drill.mjs';

test('kill -9 mid-way: acknowledged inputs survive exactly once', { timeout: 240000 }, async () => {
  const r = await drill('kill');
  console.log(
    `# kill drill: ${r.acks} acknowledged, disrupted at ${r.before} inputs, ${r.acked} compared before clients resumed, late inputs ${r.lateInputs}`,
  );
});
