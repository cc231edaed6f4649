#!/usr/bin/env python3
"""tests/mutants/sample.py - `make mutants-sample`: a sampled mutation score.

The catalogue (tests/mutants/catalogue.txt) holds the bugs its authors thought
of; this tool plants bugs nobody chose. It generates every mutant of a few
simple kinds in the C files of an area, samples N of them (deterministic given
SEED and the source), and runs the area's tests on each, in one copy of the
tree, one mutant at a time:

    relop    a relational operator swapped (<  <=  >  >=  ==  !=)
    logic    && and || swapped
    negate   the condition of an if/while negated
    delete   a one-line statement deleted
    const    an integer constant plus or minus one
    swap     two adjacent arguments of a call swapped (both plain names or
             both literals; a swap of different types does not compile)

It does not touch comments, string and character literals or preprocessor
lines. N counts the mutants scored or marked equivalent: one that does not
compile is reported and the next in SEED's order taken instead.

    python3 tests/mutants/sample.py [--n N] [--seed S] AREA ...
    python3 tests/mutants/sample.py --list [--n N] AREA ...   the first N in SEED's order, no run
    python3 tests/mutants/sample.py --self-test          the generator on a snippet
    make mutants-sample AREA='engine/rules/sprint server/game/clock.c' N=15 SEED=1

An AREA is a folder or a .c file of the checkout. Its tests are the `tests:`
specs of the longest matching prefix in tests/mutants/areas.txt (same specs as
the catalogue's, run by tests/mutants/run.py's runner functions).

Outcomes per mutant: killed (a test failed or crashed), SURVIVED (all passed),
not compiled, timeout (the mutant's time bound ran out: not a kill; the bound
is MUTANT_SAMPLE_TIMEOUT seconds, or else ten times what the area's tests
took on the unmutated copy, at least 30 s; a unit test binary also gets
MUTANT_SAMPLE_MEMORY_MB of address space, 2048), equivalent (listed in
tests/mutants/equivalent.txt as "FILE HASH reason": no test can tell it from
the original; it is not run). The score per area is killed / (killed +
survived + timeout). Survivors are listed with their hash for triage: kill
each with a test, or mark it equivalent with the reason.

Exit status: 0 when the control (the unmutated copy) passes, else 1. A survivor
does not fail the run: this is a measurement.
"""
import argparse
import hashlib
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as runner  # noqa: E402  (tests/mutants/run.py: copy_tree, run_test, database)

ROOT = runner.ROOT
AREAS = os.path.join(ROOT, 'tests', 'mutants', 'areas.txt')
EQUIVALENT = os.path.join(ROOT, 'tests', 'mutants', 'equivalent.txt')
TIMEOUT = int(os.environ.get('MUTANT_SAMPLE_TIMEOUT', '0'))  # 0: from the control run

# --- reading C: what may be mutated ------------------------------------------


def mask(src):
    """src with every comment, string literal, character literal and
    preprocessor line (with its continuations) replaced by spaces, newlines
    kept: offsets and line numbers stay those of src."""
    out = list(src)
    i, n = 0, len(src)
    line_start = True
    while i < n:
        c = src[i]
        if line_start and c in ' \t':
            i += 1
            continue
        if line_start and c == '#':
            while i < n and src[i] != '\n':
                if src[i] == '\\' and i + 1 < n and src[i + 1] == '\n':
                    out[i] = ' '
                    i += 2
                    continue
                out[i] = ' '
                i += 1
            continue
        line_start = c == '\n'
        if src.startswith('//', i):
            while i < n and src[i] != '\n':
                out[i] = ' '
                i += 1
        elif src.startswith('/*', i):
            j = src.find('*/', i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if src[k] != '\n':
                    out[k] = ' '
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and src[j] != c and src[j] != '\n':
                j += 2 if src[j] == '\\' else 1
            for k in range(i, min(j + 1, n)):
                out[k] = ' '
            i = j + 1
        else:
            i += 1
    return ''.join(out)


RELOP = {'<': '<=', '<=': '<', '>': '>=', '>=': '>', '==': '!=', '!=': '=='}
# Operators to step over whole, so that "<" is not found inside "<<" or "->".
TOKEN = re.compile(r'<<=|>>=|<<|>>|->|<=|>=|==|!=|&&|\|\||[<>]|'
                   r'\b(?:0[xX][0-9a-fA-F]+|\d+)(?:[uUlL]*)\b(?!\.)|'
                   r'[A-Za-z_]\w*')
TYPE_WORDS = {'int', 'char', 'short', 'long', 'unsigned', 'signed', 'float', 'double',
              'const', 'static', 'struct', 'enum', 'union', 'void', 'bool', 'size_t',
              'volatile', 'register', 'extern', 'typedef', 'auto'}


def matching(code, i):
    """The offset just after the parenthesis that closes the one at i."""
    depth = 0
    for j in range(i, len(code)):
        if code[j] == '(':
            depth += 1
        elif code[j] == ')':
            depth -= 1
            if depth == 0:
                return j + 1
    return -1


def split_args(code, start, end):
    """(begin, end) offsets of the top-level arguments between start and end."""
    args, depth, b = [], 0, start
    for j in range(start, end):
        ch = code[j]
        if ch in '([{':
            depth += 1
        elif ch in ')]}':
            depth -= 1
        elif ch == ',' and depth == 0:
            args.append((b, j))
            b = j + 1
    args.append((b, end))
    return args


def is_declaration(stmt):
    words = re.findall(r'[A-Za-z_]\w*', stmt)
    if not words:
        return True
    if words[0] in TYPE_WORDS or words[0].endswith('_t'):
        return True
    # NAME NAME ... or NAME *NAME ...: a declaration of a typedef'd type
    return re.match(r'^\s*[A-Za-z_]\w*\s*\**\s*[A-Za-z_]\w*\s*(=|;|\[|,)', stmt) is not None


def generate(path_label, src):
    """Every mutant of src as dicts: file, line (1-based), kind, desc, old
    (the line), new (the mutated line), start/end/text (the replacement in
    src), hash. Sorted by position."""
    code = mask(src)
    lines = src.split('\n')
    offsets = [0]
    for ln in lines:
        offsets.append(offsets[-1] + len(ln) + 1)
    found = []

    def line_of(off):
        lo, hi = 0, len(lines) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if offsets[mid] <= off:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def add(kind, start, end, text, desc):
        no = line_of(start)
        if line_of(end - 1 if end > start else start) != no:
            return  # one-line mutants only: the line is the key
        old = lines[no]
        col = start - offsets[no]
        new = old[:col] + text + old[col + end - start:]
        found.append({'file': path_label, 'line': no + 1, 'kind': kind, 'desc': desc,
                      'old': old, 'new': new, 'start': start, 'end': end, 'text': text,
                      'col': col})

    # Function bodies only: inside a brace that follows a ")" at top level.
    depth_at = [0] * (len(code) + 1)
    stack, last = [], ''
    for i, ch in enumerate(code):
        if ch == '{':
            stack.append(bool(stack) and stack[0] or (not stack and last == ')'))
        elif ch == '}' and stack:
            stack.pop()
        depth_at[i] = len(stack) if stack and stack[0] else 0
        if not ch.isspace():
            last = ch
    for m in TOKEN.finditer(code):
        tok, s, e = m.group(0), m.start(), m.end()
        if depth_at[s] <= 0:
            continue
        if tok in RELOP:
            add('relop', s, e, RELOP[tok], f'{tok} -> {RELOP[tok]}')
        elif tok in ('&&', '||'):
            alt = '||' if tok == '&&' else '&&'
            add('logic', s, e, alt, f'{tok} -> {alt}')
        elif tok[0].isdigit():
            before = code[max(0, s - 1):s]
            if before == '.' or code[e:e + 1] in ('.', 'e', 'E'):
                continue  # part of a floating constant
            val = int(re.match(r'(0[xX][0-9a-fA-F]+|\d+)', tok).group(1), 0)
            if tok.startswith('0') and len(tok) > 1 and not tok.lower().startswith('0x'):
                continue  # octal: leave it
            suffix = tok[len(re.match(r'(0[xX][0-9a-fA-F]+|\d+)', tok).group(1)):]
            add('const', s, e, f'{val + 1}{suffix}', f'{tok} -> {val + 1}{suffix}')
            if val > 0:
                add('const', s, e, f'{val - 1}{suffix}', f'{tok} -> {val - 1}{suffix}')
        elif tok in ('if', 'while'):
            p = s + len(tok)
            while p < len(code) and code[p] in ' \t':
                p += 1
            if p < len(code) and code[p] == '(':
                q = matching(code, p)
                if q > 0:
                    inner = src[p + 1:q - 1]
                    add('negate', p, q, f'(!({inner}))', f'{tok} (X) -> {tok} (!(X))')
        elif tok not in TYPE_WORDS and tok not in ('return', 'sizeof', 'for', 'switch'):
            p = e
            if p < len(code) and code[p] == '(':
                q = matching(code, p)
                if q < 0:
                    continue
                args = split_args(code, p + 1, q - 1)
                for (b1, e1), (b2, e2) in zip(args, args[1:]):
                    a1, a2 = src[b1:e1].strip(), src[b2:e2].strip()
                    ident = r'^[A-Za-z_]\w*$'
                    num = r'^-?\d+$'
                    caps = r'^[A-Z][A-Z0-9_]*$'  # a macro or enum constant, not a variable
                    same = ((re.match(ident, a1) and re.match(ident, a2)
                             and bool(re.match(caps, a1)) == bool(re.match(caps, a2))) or
                            (re.match(num, a1) and re.match(num, a2)))
                    if same and a1 != a2 and code[b1:e1].strip() == a1 \
                            and code[b2:e2].strip() == a2:
                        lead1 = src[b1:e1][:len(src[b1:e1]) - len(src[b1:e1].lstrip())]
                        lead2 = src[b2:e2][:len(src[b2:e2]) - len(src[b2:e2].lstrip())]
                        text = f'{lead1}{a2},{lead2}{a1}'
                        trail = src[b2:e2][len(src[b2:e2].rstrip()):]
                        add('swap', b1, e2, text + trail, f'{tok}(...{a1}, {a2}...) swapped')
    # Deleted statements: a whole line that is one statement at function level.
    prev = ''
    for no, ln in enumerate(lines):
        c = code[offsets[no]:offsets[no] + len(ln)].strip()
        if not c:
            continue
        if (depth_at[offsets[no]] > 0 and c.endswith(';') and c.count('(') == c.count(')')
                and prev[-1:] in (';', '{', '}', ':') and not re.match(r'(for|case|default|return)\b', c)
                and not is_declaration(c) and '{' not in c and '}' not in c):
            s = offsets[no] + len(ln) - len(ln.lstrip())
            add('delete', s, offsets[no] + len(ln), ';', 'statement deleted')
        prev = c
    # The k-th line of the file with the same text (k > 0) adds k to its hash, so
    # two identical lines do not share one.
    seen_text, occurrence = {}, {}
    for no, ln in enumerate(lines):
        occurrence[no + 1] = seen_text.get(ln.strip(), 0)
        seen_text[ln.strip()] = occurrence[no + 1] + 1
    for f in found:
        key = f['old'].strip() + '\n' + f['new'].strip()
        if occurrence[f['line']]:
            key += f'\n{occurrence[f["line"]]}'
        f['hash'] = hashlib.sha1(key.encode()).hexdigest()[:10]
    found.sort(key=lambda f: (f['line'], f['col'], f['kind'], f['new']))
    # One line can give the same text twice (two sites): keep the first.
    seen, unique = set(), []
    for f in found:
        if (f['line'], f['new']) not in seen:
            seen.add((f['line'], f['new']))
            unique.append(f)
    return unique


# --- areas, equivalents, sampling --------------------------------------------


def read_areas():
    areas = []
    with open(AREAS, encoding='utf-8') as f:
        for no, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            prefix, sep, specs = line.partition(':')
            if not sep or not specs.split():
                raise ValueError(f'{AREAS}:{no}: want "PATH: spec ..."')
            areas.append((prefix.strip().rstrip('/'), specs.split()))
    return areas


def tests_for(rel, areas):
    best = None
    for prefix, specs in areas:
        if rel == prefix or rel.startswith(prefix + '/'):
            if best is None or len(prefix) > len(best[0]):
                best = (prefix, specs)
    return best[1] if best else None


def read_equivalent():
    eq = {}
    if os.path.isfile(EQUIVALENT):
        with open(EQUIVALENT, encoding='utf-8') as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith('#'):
                    parts = line.split(None, 2)
                    if len(parts) == 3:
                        eq[(parts[0], parts[1])] = parts[2]
    return eq


def area_files(area):
    path = os.path.join(ROOT, area)
    if os.path.isfile(path):
        return [area] if area.endswith('.c') else []
    out = []
    for dirpath, _, names in os.walk(path):
        for name in names:
            if name.endswith('.c'):
                out.append(os.path.relpath(os.path.join(dirpath, name), ROOT))
    return sorted(out)


def sample(area, n, seed):
    every = []
    for rel in area_files(area):
        with open(os.path.join(ROOT, rel), encoding='utf-8') as f:
            every.extend(generate(rel, f.read()))
    order = list(every)
    random.Random(f'{seed}:{area}').shuffle(order)
    return every, order


# --- running -----------------------------------------------------------------

# A unit test binary's address space, MUTANT_SAMPLE_MEMORY_MB (2048): a mutant that
# turns a loop into an endless allocation fails on its own instead of taking the
# machine's memory. Not for node (its heap reserves more than it uses).
MEMORY = int(os.environ.get('MUTANT_SAMPLE_MEMORY_MB', '2048')) * 1024 * 1024


def run_test(tree, spec, env, log, seconds):
    """tests/mutants/run.py's run_test with a time bound, and for a unit test
    the memory bound."""
    runner.TIMEOUT = max(1, int(seconds))
    if not spec.startswith('unit/'):
        return runner.run_test(tree, spec, env, log)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (min(MEMORY, hard) if hard > 0 else MEMORY, hard))
    try:
        return runner.run_test(tree, spec, env, log)
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def build_targets(tree, specs, log):
    targets = set()
    for spec in specs:
        if spec.startswith('unit/'):
            targets.add(os.path.join('build', 'tests', spec[5:]))
        else:
            targets.add(os.path.join('build', 'conclave'))
    with open(log, 'w') as out:
        return subprocess.run(['make', '-s', '-C', tree, f'-j{runner.JOBS}', 'BUILD=build',
                               *sorted(targets)], stdout=out, stderr=subprocess.STDOUT).returncode == 0


def write_bumped(path, text):
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)
    t = time.time() + 2
    os.utime(path, (t, t))  # newer than its object, whatever the clock's grain


def run_mutant(tree, m, specs, env, logs, bound):
    """The outcome of one mutant: (outcome, note); its tests get bound
    seconds in all."""
    path = os.path.join(tree, m['file'])
    with open(path, encoding='utf-8') as f:
        original = f.read()
    mutated = original[:m['start']] + m['text'] + original[m['end']:]
    name = f'{m["file"].replace("/", "_")}.{m["line"]}.{m["hash"]}'
    try:
        write_bumped(path, mutated)
        if not build_targets(tree, specs, os.path.join(logs, name + '.build.log')):
            return 'not compiled', ''
        deadline = time.time() + bound
        for spec in specs:
            left = int(deadline - time.time())
            if left <= 0:
                return 'timeout', f'{spec}: the mutant\'s {bound} s ran out'
            o, note = run_test(tree, spec, env,
                               os.path.join(logs, f'{name}.{re.sub(r"[^A-Za-z0-9]", "_", spec)}.log'), left)
            if o in ('fail', 'crash') and not (spec.startswith('canary') and o == 'crash'):
                return 'killed', f'{spec}: {note}'
            if o == 'timeout':
                return 'timeout', f'{spec}: {note}'
        return 'SURVIVED', ''
    finally:
        write_bumped(path, original)


def run(areas_wanted, n, seed):
    areas = read_areas()
    eq = read_equivalent()
    plan = []
    for area in areas_wanted:
        area = area.rstrip('/')
        specs = tests_for(area, areas)
        if specs is None:
            print(f'no tests for {area} in tests/mutants/areas.txt')
            return 1
        every, order = sample(area, n, seed)
        if not every:
            print(f'no mutants in {area} (no .c file?)')
            return 1
        plan.append((area, specs, every, order))
        print(f'{area}: {len(every)} mutants, {n or len(every)} to sample (SEED={seed}); tests: {" ".join(specs)}',
              flush=True)
    env = dict(os.environ, CONCLAVE_TEST_QUICK=os.environ.get('CONCLAVE_TEST_QUICK', '1'))
    started = False
    if any(not s.startswith('unit/') for _, specs, _, _ in plan for s in specs):
        env['DATABASE_URL'], started = runner.database()
    env.pop('CONCLAVE_PRIVATE_PG', None)
    work = tempfile.mkdtemp(prefix='conclave-mutants-sample-')
    logs = os.path.join(ROOT, 'tests', 'out', 'mutants-sample')
    shutil.rmtree(logs, ignore_errors=True)
    os.makedirs(logs)
    tree = os.path.join(work, 'tree')
    try:
        runner.copy_tree(tree)
        all_specs = sorted({s for _, specs, _, _ in plan for s in specs})
        if not build_targets(tree, all_specs, os.path.join(logs, 'control-build.log')):
            print('FAIL control: the unmutated copy does not build (tests/out/mutants-sample/control-build.log)')
            return 1
        took = {}
        for spec in all_specs:
            t0 = time.time()
            o, note = run_test(tree, spec, env, os.path.join(
                logs, 'control-' + re.sub(r'\W', '_', spec) + '.log'), TIMEOUT or 600)
            took[spec] = time.time() - t0
            print(f'control: {spec}: {o} ({took[spec]:.0f} s){" - " + note if note else ""}', flush=True)
            if o != 'pass':
                print('FAIL control: a test fails on the unmutated tree; no mutant was run')
                return 1
        summary = []
        for area, specs, every, order in plan:
            # A mutant's bound: ten times what its tests took unmutated, at least 30 s.
            bound = TIMEOUT or int(max(30, 10 * sum(took[s] for s in specs)))
            counts = {k: 0 for k in ('killed', 'SURVIVED', 'not compiled', 'timeout', 'equivalent')}
            survivors = []
            # N mutants that build: those that do not are reported, not counted.
            for m in order:
                if n > 0 and len(order) > n and sum(counts.values()) - counts['not compiled'] >= n:
                    break
                t0 = time.time()
                reason = eq.get((m['file'], m['hash']))
                if reason:
                    outcome, note = 'equivalent', reason
                else:
                    outcome, note = run_mutant(tree, m, specs, env, logs, bound)
                counts[outcome] += 1
                if outcome in ('SURVIVED', 'timeout'):
                    survivors.append((m, outcome))
                print(f'{outcome:<12} {m["file"]}:{m["line"]} {m["hash"]} {m["kind"]:<6} '
                      f'{m["desc"]} ({time.time() - t0:.0f} s){" - " + note if note else ""}', flush=True)
            summary.append((area, len(every), counts, survivors))
        print()
        for area, total, c, survivors in summary:
            ran = c['killed'] + c['SURVIVED'] + c['timeout']
            score = f'{100.0 * c["killed"] / ran:.0f}%' if ran else 'n/a'
            print(f'RESULT {area}: {c["killed"]} of {ran} killed ({score}); survived {c["SURVIVED"]}, '
                  f'timed out {c["timeout"]}, not compiled {c["not compiled"]}, '
                  f'equivalent {c["equivalent"]} (of {total} mutants, SEED={seed})')
            for m, outcome in survivors:
                print(f'  {outcome}: {m["file"]}:{m["line"]} hash {m["hash"]} ({m["kind"]}: {m["desc"]})')
                print(f'      - {m["old"].strip()}')
                print(f'      + {m["new"].strip()}')
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if started and not os.environ.get('CONCLAVE_KEEP_PG'):
            subprocess.run(['bash', 'scripts/pg.sh', 'stop'], cwd=ROOT, capture_output=True)


# --- self-test ---------------------------------------------------------------

SNIPPET = '''#include <stdio.h>
#define LIMIT(a, b) ((a) < (b) ? 1 : 2)
/* if (a < b) in a comment */
static const int table[] = {1, 2};
int f(int a, int b)
{
    int c = 7; // a < b
    if (a < b && b != 3)
        c = g(a, b);
    puts("x < y");
    c++;
    return c >= 0x10 ? 'a' : 2.5;
}
'''


def self_test():
    got = {(m['line'], m['kind'], m['new'].strip()) for m in generate('snippet.c', SNIPPET)}
    want = {
        (8, 'relop', 'if (a <= b && b != 3)'),
        (8, 'relop', 'if (a < b && b == 3)'),
        (8, 'logic', 'if (a < b || b != 3)'),
        (8, 'negate', 'if (!(a < b && b != 3))'),
        (8, 'const', 'if (a < b && b != 4)'),
        (8, 'const', 'if (a < b && b != 2)'),
        (9, 'swap', 'c = g(b, a);'),
        (11, 'delete', ';'),
        (12, 'relop', "return c > 0x10 ? 'a' : 2.5;"),
        (12, 'const', "return c >= 17 ? 'a' : 2.5;"),
        (12, 'const', "return c >= 15 ? 'a' : 2.5;"),
        (7, 'const', 'int c = 8; // a < b'),
        (7, 'const', 'int c = 6; // a < b'),
        (10, 'delete', ';'),
    }
    bad = 0
    for w in sorted(want - got):
        print(f'missing: {w}')
        bad += 1
    for g in sorted(got - want):
        print(f'unexpected: {g}')
        bad += 1
    twice = generate('twice.c', 'void f(int *a)\n{\n    g(a);\n    g(a);\n}\n')
    if len({m['hash'] for m in twice if m['kind'] == 'delete'}) != 2:
        print('two identical lines share a hash')
        bad += 1
    h1 = generate('snippet.c', SNIPPET)
    h2 = generate('snippet.c', '\n\n' + SNIPPET)
    if [m['hash'] for m in h1] != [m['hash'] for m in h2]:
        print('the hash of a mutant moves with its line number')
        bad += 1
    print(f'RESULT mutants-sample self-test: {len(want) - len(want - got)} of {len(want)} expected, '
          f'{len(got - want)} unexpected')
    return 1 if bad else 0


def main(argv):
    # SIGTERM as Ctrl-C: the copy of the tree is removed on the way out.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    ap = argparse.ArgumentParser(description='a sampled mutation score')
    ap.add_argument('areas', nargs='*')
    ap.add_argument('--n', type=int, default=int(os.environ.get('N') or 20))
    ap.add_argument('--seed', default=os.environ.get('SEED') or '1')
    ap.add_argument('--list', action='store_true')
    ap.add_argument('--self-test', action='store_true')
    a = ap.parse_args(argv)
    if a.self_test:
        return self_test()
    if not a.areas:
        ap.error('name at least one AREA')
    if a.list:
        eq = read_equivalent()
        for area in a.areas:
            every, order = sample(area.rstrip('/'), a.n, a.seed)
            picked = order[:a.n] if a.n > 0 else order
            for m in picked:
                mark = ' (equivalent)' if (m['file'], m['hash']) in eq else ''
                print(f'{m["file"]}:{m["line"]} {m["hash"]} {m["kind"]:<6} {m["new"].strip()}{mark}')
            print(f'{area}: {len(picked)} of {len(every)} mutants')
        return 0
    return run(a.areas, a.n, a.seed)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
