// jsonpatch.test.mjs - the C JSON Patch generator (common/jsonpatch.c) checked
// by an independent applier: for thousands of random document pairs, the
// patch the C diff makes, applied by fast-json-patch to a copy of `from`, must
// give exactly `to`. The pairs come from `test_jsonpatch --emit N SEED` (the
// unit-test binary, see tests/unit/test_jsonpatch.c): game-view-like
// documents (hands of card objects, 9-cell boards, logs) and random ones,
// edited by random mutations (cards inserted, removed and moved in the middle
// of hands, logs appended and trimmed, keys added and removed, type changes,
// keys that need "~0"/"~1" escaping).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import jsonpatch from 'fast-json-patch';

const ROOT =
  process.env.CONCLAVE_ROOT || path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUILD = process.env.BUILD
  ? path.resolve(ROOT, process.env.BUILD)
  : process.env.CONCLAVE_BIN
    ? path.dirname(path.resolve(ROOT, process.env.CONCLAVE_BIN))
    : path.join(ROOT, 'build');
const TOOL = path.join(BUILD, 'tests', 'test_jsonpatch');
const PAIRS = process.env.CONCLAVE_TEST_QUICK === '1' ? 400 : 2000; // per seed
const SEEDS = [1, 2, 3];
const INDEX = /^(0|[1-9][0-9]*)$/;

function emit(n, seed) {
  assert.ok(fs.existsSync(TOOL), `${TOOL} is missing: build it with make unit`);
  const out = execFileSync(TOOL, ['--emit', String(n), String(seed)], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const lines = out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  assert.equal(lines.length, n);
  return lines;
}

const cache = new Map();
function pairs(seed) {
  if (!cache.has(seed)) cache.set(seed, emit(PAIRS, seed));
  return cache.get(seed);
}

const unescape = (s) => s.replace(/~1/g, '/').replace(/~0/g, '~');

function parentOf(doc, pointer) {
  const cut = pointer.lastIndexOf('/');
  return {
    parent: jsonpatch.getValueByPointer(doc, pointer.slice(0, cut)),
    last: unescape(pointer.slice(cut + 1)),
  };
}

const isCard = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && 'id' in v;

for (const seed of SEEDS) {
  test(`fast-json-patch turns from into to with the C patch (seed ${seed})`, () => {
    let ops = 0;
    for (const [k, { from, to, ops: patch }] of pairs(seed).entries()) {
      assert.ok(Array.isArray(patch), `pair ${k}: the patch is not an array`);
      const errors = jsonpatch.validate(patch, structuredClone(from));
      assert.equal(errors, undefined, `pair ${k}: invalid patch: ${errors}`);
      const got = jsonpatch.applyPatch(
        structuredClone(from),
        structuredClone(patch),
        true,
        true,
        true,
      ).newDocument;
      assert.deepStrictEqual(got, to, `pair ${k}: ${JSON.stringify(patch)}`);
      if (patch.length === 0) assert.deepStrictEqual(from, to, `pair ${k}: empty patch`);
      ops += patch.length;
    }
    assert.ok(ops > PAIRS, `only ${ops} operations in ${PAIRS} pairs`);
  });
}

test('array positions are explicit indices, and hands are edited in the middle', () => {
  let middleCardEdits = 0;
  let arrayOps = 0;
  for (const seed of SEEDS) {
    for (const [k, { from, ops }] of pairs(seed).entries()) {
      let doc = structuredClone(from);
      for (const op of ops) {
        assert.ok(['add', 'remove', 'replace'].includes(op.op), `pair ${k}: op ${op.op}`);
        if (op.path !== '') {
          const { parent, last } = parentOf(doc, op.path);
          if (Array.isArray(parent)) {
            arrayOps++;
            assert.match(last, INDEX, `pair ${k}: ${op.path} is not an index`);
            const i = Number(last);
            const size = parent.length;
            assert.ok(
              op.op === 'add' ? i <= size : i < size,
              `pair ${k}: ${op.op} ${op.path} with ${size} elements`,
            );
            const middle = op.op === 'add' ? i < size : i < size - 1;
            if (middle && op.op !== 'replace' && (isCard(op.value) || isCard(parent[i]))) {
              middleCardEdits++;
            }
          }
        }
        doc = jsonpatch.applyOperation(doc, structuredClone(op), true, true, true).newDocument;
      }
    }
  }
  assert.ok(arrayOps > 1000, `only ${arrayOps} operations on arrays`);
  assert.ok(middleCardEdits > 100, `only ${middleCardEdits} cards added or removed mid-hand`);
});

test('the same seed gives the same pairs and patches', () => {
  const a = emit(50, 99);
  const b = emit(50, 99);
  assert.deepStrictEqual(a, b);
});
