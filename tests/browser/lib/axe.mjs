// axe.mjs - accessibility and phone-width checks for the browser tests:
// axe-core (the npm package) run inside the page, keeping the serious and
// critical violations, and the page's horizontal overflow at its viewport.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

// The serious and critical axe-core violations of the page as it is now:
// [{id, impact, help, targets}].
export async function axeViolations(page) {
  // Evaluated through the debugging protocol: the page's CSP forbids
  // inline scripts, and that is how it should stay.
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE);
  const res = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
      detail: (v.nodes[0] && v.nodes[0].failureSummary) || '',
    }));
  });
  return res.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

// Fails the test with the violations listed when there is any.
export async function assertAccessible(page, what) {
  const bad = await axeViolations(page);
  assert.deepEqual(
    bad,
    [],
    `${what}: axe-core finds ${bad.map((v) => `${v.id} (${v.help}) at ${v.targets.join(', ')}`).join('; ')}`,
  );
}

// How many pixels the page is wider than its viewport (0: no horizontal
// scroll), with the widest offender's selector when there is one.
export async function overflow(page) {
  return page.evaluate(() => {
    const over = document.documentElement.scrollWidth - window.innerWidth;
    if (over <= 0) return { over: 0, culprit: null };
    let culprit = null;
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.right > window.innerWidth + 1 && r.width > 0) {
        culprit = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].join('.')} (${Math.round(r.right)} px)`;
        break;
      }
    }
    return { over, culprit };
  });
}

export async function assertNoHorizontalScroll(page, what) {
  const o = await overflow(page);
  assert.equal(o.over, 0, `${what}: ${o.over} px wider than the screen (${o.culprit})`);
}
