#!/usr/bin/env python3
"""tests/mutants/run.py - `make mutants`: can the tests fail when the code is wrong?

Reads tests/mutants/catalogue.txt (format described at its top): each mutant is a
file, an exact snippet of its text, the replacement, the tests that must catch it
and the promise it breaks. For each mutant the runner copies the tree (the
checkout's files, committed or not, never the checkout itself), replaces the
snippet, builds, and runs the named tests until one fails.

    python3 tests/mutants/run.py [NAME-or-glob ...]     (or: make mutants)
    python3 tests/mutants/run.py --check                 only: does every entry apply?

Before any mutant, a control run builds the unmutated copy and runs every named
test on it: all must pass (a test that fails anyway cannot tell us anything).

Outcomes per mutant:
  killed          a named test failed (for `canary` and `canary_starbase_council`: it
                  reported at least one leak through its leak assertion; a crash or
                  timeout does not count)
  SURVIVED        every named test passed; fine only if the entry has a `survives:`
                  line saying why (the reason is printed)
  DOES NOT APPLY  the snippet is not in the file exactly once (the code moved:
                  re-target the entry)
  BUILD FAILED    the mutated copy does not compile (fix the entry)
  timeout         a named test ran out of time: not a kill

It ends with the kill rate (killed / mutants that applied and built) and exits 1 if
the control failed, an entry does not apply or does not build, or a mutant survived
without a written reason.

Environment: DATABASE_URL (else the checkout's private Postgres, scripts/pg.sh,
started and stopped again), MUTANT_TIMEOUT seconds per test (default 600),
CONCLAVE_TEST_QUICK (default "1" here: the quick loops are enough to kill), JOBS for
make (default: the number of CPUs).
"""
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
CATALOGUE = os.path.join(ROOT, 'tests', 'mutants', 'catalogue.txt')
TIMEOUT = int(os.environ.get('MUTANT_TIMEOUT', '600'))
JOBS = os.environ.get('JOBS', str(os.cpu_count() or 2))


def parse(path):
    """The catalogue as a list of dicts: name, file, promise, tests, old, new,
    survives (or None). Raises ValueError on a malformed entry."""
    mutants, cur, block = [], None, None
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    for no, line in enumerate(lines, 1):
        if block is not None:
            if line in ('-- new', '-- end'):
                cur[block] = '\n'.join(cur[block])
                block = 'new' if line == '-- new' else None
                if block:
                    cur['new'] = []
                continue
            cur[block].append(line)
            continue
        if not line.strip() or line.startswith('#'):
            continue
        if line.startswith('== '):
            cur = {'name': line[3:].strip(), 'line': no, 'survives': None}
            mutants.append(cur)
        elif cur is None:
            raise ValueError(f'{path}:{no}: text before the first "== name"')
        elif line == '-- old':
            block, cur['old'] = 'old', []
        elif ':' in line:
            key, val = line.split(':', 1)
            cur[key.strip()] = val.strip()
        else:
            raise ValueError(f'{path}:{no}: cannot read {line!r}')
    for m in mutants:
        for key in ('file', 'promise', 'tests', 'old', 'new'):
            if key not in m:
                raise ValueError(f'{path}:{m["line"]}: {m["name"]} has no {key}')
        m['tests'] = m['tests'].split()
    return mutants


def copy_tree(dst):
    """The checkout's files (tracked and untracked, not ignored) and its build
    folder, with their times, into dst; node_modules linked."""
    files = subprocess.run(['git', '-C', ROOT, 'ls-files', '-z', '--cached', '--others',
                            '--exclude-standard'], check=True, capture_output=True).stdout
    for rel in filter(None, files.decode().split('\0')):
        src = os.path.join(ROOT, rel)
        if not os.path.isfile(src):
            continue  # deleted but still in the index
        os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
        shutil.copy2(src, os.path.join(dst, rel))
    if os.path.isdir(os.path.join(ROOT, 'build')):
        shutil.copytree(os.path.join(ROOT, 'build'), os.path.join(dst, 'build'), symlinks=True)
    nm = os.path.join(ROOT, 'tests', 'node_modules')
    if os.path.isdir(nm):
        os.symlink(nm, os.path.join(dst, 'tests', 'node_modules'))


def applies(tree, m):
    path = os.path.join(tree, m['file'])
    if not os.path.isfile(path):
        return f'{m["file"]} does not exist'
    with open(path, encoding='utf-8') as f:
        n = f.read().count(m['old'])
    return None if n == 1 else f'the snippet occurs {n} times in {m["file"]}'


def mutate(tree, m):
    path = os.path.join(tree, m['file'])
    with open(path, encoding='utf-8') as f:
        s = f.read()
    with open(path, 'w', encoding='utf-8') as f:
        f.write(s.replace(m['old'], m['new'], 1))
    os.utime(path, (time.time() + 2, time.time() + 2))  # newer than its object


def build(tree, log):
    with open(log, 'w') as out:
        return subprocess.run(['make', '-s', '-C', tree, f'-j{JOBS}', 'BUILD=build', 'unit'],
                              stdout=out, stderr=subprocess.STDOUT).returncode == 0


def run_test(tree, spec, env, log):
    """Run one named test in tree. Returns (outcome, note): outcome 'pass',
    'fail' (an assertion), 'crash' or 'timeout'."""
    if spec.startswith('unit/'):
        cmd = [os.path.join(tree, 'build', 'tests', spec[5:])]
    else:
        file, _, pattern = spec.partition('@')
        if file.startswith('canary'):  # canary, canary_starbase_council
            file = 'integration/' + file
        cmd = ['node', '--test', '--test-reporter=tap']
        if pattern:
            cmd.append(f'--test-name-pattern={pattern}')
        cmd.append(os.path.join('tests', file + '.test.mjs'))
    env = dict(env, CONCLAVE_BIN=os.path.join(tree, 'build', 'conclave'), CONCLAVE_ROOT=tree)
    with open(log, 'w') as out:
        try:
            rc = subprocess.run(cmd, cwd=tree, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, timeout=TIMEOUT,
                                start_new_session=True).returncode
        except subprocess.TimeoutExpired:
            return 'timeout', f'after {TIMEOUT} s'
    with open(log, encoding='utf-8', errors='replace') as f:
        text = f.read()
    if spec.startswith('unit/'):
        res = re.findall(r'^RESULT .*: (\d+) passed, (\d+) failed', text, re.M)
        if not res:
            return ('crash', f'no RESULT line, exit {rc}') if rc else ('fail', 'no RESULT line')
        failed = int(res[-1][1])
        if failed:
            first = re.search(r'^.*CHECK.*failed.*$', text, re.M)
            return 'fail', first.group(0).strip()[:150] if first else f'{failed} failed'
        return ('crash', f'exit {rc}') if rc else ('pass', '')
    fails = re.findall(r'^# fail (\d+)', text, re.M)
    passes = re.findall(r'^# pass (\d+)', text, re.M)
    if not fails:
        return 'crash', f'no TAP summary, exit {rc}'
    if spec.startswith('canary'):
        leaks = re.findall(r'canary: leaks (\d+)', text)
        if int(fails[-1]) and leaks and int(leaks[-1]) > 0 and 'leaks (see the # LEAK lines)' in text:
            first = re.search(r'# LEAK (.*)', text)
            return 'fail', f'{leaks[-1]} leaks; first: {first.group(1)[:110] if first else "?"}'
        if int(fails[-1]) or rc:
            return 'crash', 'the canary failed without reporting a leak'
        return 'pass', ''
    if int(fails[-1]):
        m = re.search(r'^not ok \d+ - (.*)$', text, re.M)
        return 'fail', (m.group(1) if m else 'a test failed')[:150]
    if rc:
        return 'crash', f'exit {rc}'
    if passes and int(passes[-1]) == 0:
        return 'crash', 'no test ran (does the @pattern still match?)'
    return 'pass', ''


def database():
    """(DATABASE_URL, whether we started the private Postgres)."""
    if os.environ.get('DATABASE_URL'):
        return os.environ['DATABASE_URL'], False
    was_up = subprocess.run(['bash', 'scripts/pg.sh', 'status'], cwd=ROOT,
                            capture_output=True).returncode == 0
    subprocess.run(['bash', 'scripts/pg.sh', 'start'], cwd=ROOT, check=True)
    url = subprocess.run(['bash', 'scripts/pg.sh', 'url'], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    return url, not was_up


def main(argv):
    mutants = parse(CATALOGUE)
    if argv[:1] == ['--check']:
        missing = [(m, applies(ROOT, m)) for m in mutants]
        for m, why in missing:
            if why:
                print(f'DOES NOT APPLY {m["name"]}: {why}')
        n = sum(1 for _, why in missing if why)
        print(f'{len(mutants) - n} of {len(mutants)} mutants apply')
        return 1 if n else 0
    if argv:
        mutants = [m for m in mutants if any(fnmatch.fnmatch(m['name'], a) for a in argv)]
        if not mutants:
            print(f'no mutant matches {" ".join(argv)}')
            return 1
    url, started = database()
    env = dict(os.environ, DATABASE_URL=url, CONCLAVE_TEST_QUICK=os.environ.get('CONCLAVE_TEST_QUICK', '1'))
    env.pop('CONCLAVE_PRIVATE_PG', None)  # copies must never stop the shared database
    work = tempfile.mkdtemp(prefix='conclave-mutants-')
    logs = os.path.join(ROOT, 'tests', 'out', 'mutants')
    shutil.rmtree(logs, ignore_errors=True)
    os.makedirs(logs)
    base = os.path.join(work, 'base')
    bad = 0
    try:
        copy_tree(base)
        print(f'control: building an unmutated copy ({len(mutants)} mutants in the catalogue)', flush=True)
        if not build(base, os.path.join(logs, 'control-build.log')):
            print('FAIL control: the unmutated copy does not build (tests/out/mutants/control-build.log)')
            return 1
        ready, results = [], []
        for m in mutants:
            why = applies(base, m)
            if why:
                results.append((m, 'DOES NOT APPLY', why))
                bad += 1
            else:
                ready.append(m)
        specs = sorted({t for m in ready for t in m['tests']})
        control_ok = True
        for spec in specs:
            t0 = time.time()
            outcome, note = run_test(base, spec, env, os.path.join(logs, 'control-' + re.sub(r'\W', '_', spec) + '.log'))
            print(f'control: {spec}: {outcome} ({time.time() - t0:.0f} s){" - " + note if note else ""}', flush=True)
            control_ok &= outcome == 'pass'
        if not control_ok:
            print('FAIL control: a named test fails on the unmutated tree; no mutant was run')
            return 1
        for m in ready:
            tree = os.path.join(work, 'm')
            shutil.rmtree(tree, ignore_errors=True)
            shutil.copytree(base, tree, symlinks=True)
            mutate(tree, m)
            log = os.path.join(logs, m['name'])
            t0 = time.time()
            if not build(tree, log + '.build.log'):
                results.append((m, 'BUILD FAILED', f'see tests/out/mutants/{m["name"]}.build.log'))
                bad += 1
            else:
                outcome, note = 'SURVIVED', ''
                for spec in m['tests']:
                    o, n = run_test(tree, spec, env, f'{log}.{re.sub(r"[^A-Za-z0-9]", "_", spec)}.log')
                    if o in ('fail', 'crash') and not (spec.startswith('canary') and o == 'crash'):
                        outcome, note = 'killed', f'{spec}: {n}'
                        break
                    if o != 'pass':
                        outcome, note = ('timeout' if o == 'timeout' else 'SURVIVED'), f'{spec}: {o} {n}'
                if outcome != 'killed' and m['survives']:
                    note = (note + '; ' if note else '') + 'known: ' + m['survives']
                elif outcome != 'killed':
                    bad += 1
                results.append((m, outcome, note))
            r = results[-1]
            print(f'{r[1]:<14} {m["name"]:<34} ({time.time() - t0:.0f} s) {r[2]}', flush=True)
        print()
        print('mutant                             outcome         promise')
        for m, outcome, note in results:
            print(f'{m["name"]:<34} {outcome:<15} {m["promise"]}')
        ran = [r for r in results if r[1] not in ('DOES NOT APPLY', 'BUILD FAILED')]
        killed = sum(1 for r in ran if r[1] == 'killed')
        print()
        for m, outcome, note in results:
            if outcome != 'killed':
                print(f'{outcome}: {m["name"]} ({m["file"]}): {note}')
        rate = 100.0 * killed / len(ran) if ran else 0.0
        print(f'RESULT mutants: {killed} of {len(ran)} killed ({rate:.0f}%), '
              f'{len(ran) - killed} survived or timed out, '
              f'{sum(1 for r in results if r[1] == "DOES NOT APPLY")} do not apply, '
              f'{sum(1 for r in results if r[1] == "BUILD FAILED")} do not build')
        return 1 if bad else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if started and not os.environ.get('CONCLAVE_KEEP_PG'):
            subprocess.run(['bash', 'scripts/pg.sh', 'stop'], cwd=ROOT, capture_output=True)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
