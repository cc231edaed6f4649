// jsonpatch.js - a small RFC 6902 JSON Patch applier (add, remove, replace,
// move, copy, test) over RFC 6901 JSON Pointers ("~0" is "~", "~1" is "/").
//
// applyPatch(doc, ops) never changes `doc`: it works on a deep copy and
// returns the new document, or throws a PatchError that names the failing
// operation. All or nothing, as the WebSocket hub's patches need: a patch
// that does not apply means the page's copy is wrong, and it resubscribes.
// Pure: no DOM, so Node can import it too (tests).

export class PatchError extends Error {
  constructor(index, op, why) {
    super(`op ${index} (${op && op.op} ${JSON.stringify(op && op.path)}): ${why}`);
    this.name = 'PatchError';
    this.index = index;
  }
}

const clone = (v) => (v === undefined ? v : structuredClone(v));

// "/a/b~1c" -> ["a", "b/c"]; "" -> [] (the whole document).
export function parsePointer(pointer) {
  if (typeof pointer !== 'string') throw new Error('a path must be a string');
  if (pointer === '') return [];
  if (pointer[0] !== '/') throw new Error(`pointer ${JSON.stringify(pointer)} must start with "/"`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => {
      if (/~[^01]|~$/.test(t)) throw new Error(`bad escape in ${JSON.stringify(pointer)}`);
      return t.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

export function escapeToken(key) {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function formatPointer(tokens) {
  return tokens.map((t) => '/' + escapeToken(t)).join('');
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

// An array index token: "0" or no leading zero; "-" only where allowed.
function arrayIndex(arr, token, forAdd) {
  if (forAdd && token === '-') return arr.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`"${token}" is not an array index`);
  const i = Number(token);
  const max = forAdd ? arr.length : arr.length - 1;
  if (i > max) throw new Error(`index ${i} out of range (size ${arr.length})`);
  return i;
}

// The container holding the last token of `tokens`, walking from root.
function parentOf(root, tokens) {
  let cur = root;
  for (let k = 0; k < tokens.length - 1; k++) {
    const t = tokens[k];
    if (Array.isArray(cur)) cur = cur[arrayIndex(cur, t, false)];
    else if (isObject(cur) && has(cur, t)) cur = cur[t];
    else throw new Error(`${formatPointer(tokens.slice(0, k + 1))} does not exist`);
  }
  if (!Array.isArray(cur) && !isObject(cur))
    throw new Error(`the parent of ${formatPointer(tokens)} is not a container`);
  return cur;
}

export function getValue(root, tokens) {
  let cur = root;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (Array.isArray(cur)) cur = cur[arrayIndex(cur, t, false)];
    else if (isObject(cur) && has(cur, t)) cur = cur[t];
    else throw new Error(`${formatPointer(tokens.slice(0, k + 1))} does not exist`);
  }
  return cur;
}

// Each of these returns the new root (a "" path replaces the whole thing).
function add(root, tokens, value) {
  if (tokens.length === 0) return value;
  const parent = parentOf(root, tokens);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, true), 0, value);
  else parent[last] = value;
  return root;
}

function remove(root, tokens) {
  if (tokens.length === 0) throw new Error('cannot remove the whole document');
  const parent = parentOf(root, tokens);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent))
    return { root, value: parent.splice(arrayIndex(parent, last, false), 1)[0] };
  if (!has(parent, last)) throw new Error(`${formatPointer(tokens)} does not exist`);
  const value = parent[last];
  delete parent[last];
  return { root, value };
}

function replace(root, tokens, value) {
  if (tokens.length === 0) return value;
  const parent = parentOf(root, tokens);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent[arrayIndex(parent, last, false)] = value;
  else if (has(parent, last)) parent[last] = value;
  else throw new Error(`${formatPointer(tokens)} does not exist`);
  return root;
}

// Deep equality for "test": numbers by value, objects ignoring key order.
export function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => has(b, k) && deepEqual(a[k], b[k]));
}

function needValue(op) {
  if (!has(op, 'value')) throw new Error('"value" is missing');
  return clone(op.value);
}

function needFrom(op) {
  if (!has(op, 'from')) throw new Error('"from" is missing');
  return parsePointer(op.from);
}

export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw new PatchError(-1, null, 'a patch must be an array');
  let root = clone(doc);
  ops.forEach((op, i) => {
    try {
      if (!isObject(op)) throw new Error('an operation must be an object');
      const tokens = parsePointer(op.path);
      switch (op.op) {
        case 'add':
          root = add(root, tokens, needValue(op));
          break;
        case 'remove':
          root = remove(root, tokens).root;
          break;
        case 'replace':
          root = replace(root, tokens, needValue(op));
          break;
        case 'move': {
          const from = needFrom(op);
          if (
            from.length < tokens.length &&
            formatPointer(tokens).startsWith(formatPointer(from) + '/')
          )
            throw new Error('cannot move a value into one of its own children');
          if (formatPointer(from) === formatPointer(tokens)) break;
          const taken = remove(root, from);
          root = add(taken.root, tokens, taken.value);
          break;
        }
        case 'copy':
          root = add(root, tokens, clone(getValue(root, needFrom(op))));
          break;
        case 'test':
          if (!has(op, 'value')) throw new Error('"value" is missing');
          if (!deepEqual(getValue(root, tokens), op.value)) throw new Error('test failed');
          break;
        default:
          throw new Error(`unknown op ${JSON.stringify(op.op)}`);
      }
    } catch (e) {
      if (e instanceof PatchError) throw e;
      throw new PatchError(i, op, e.message);
    }
  });
  return root;
}
