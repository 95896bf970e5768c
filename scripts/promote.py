#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# promote.py [--keep] [--check] KTAP
#
# Rewrite the pinned figures of the exploration tables, kunit/expect/*.h,
# from a run of the suites (make promote: the userspace runner's KTAP; a
# kernel run's log reads the same). Each case whose figures live in a
# table prints one line per search (explore_promote() of
# kunit/explore_expect.h):
#
#   # CASE: promote TABLE "KEY" states=N transitions=N violated=0xM
#     verdict=C depth=D
#
# and this script writes every table it saw, one row per key, in the order
# of the run, as plain C data: `git diff kunit/expect/` is then the change
# of figures a model change made, to review and commit (in the manner of
# herdtools7's promote). A row whose case did not run is dropped, unless
# --keep (make promote T=GLOB, a part of the suites) keeps it where it was.
# A table no line names is left alone. --check writes nothing and exits 1
# if a file would change.
#
# The verdict and the bits of the mask are numbers on the line; their
# names come from enum bqlm_check (model/include/bqlm/violation.h) and the
# BIT_* short names of kunit/explore_expect.h.

import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXPECT_DIR = os.path.join(ROOT, 'kunit', 'expect')
VIOLATION_H = os.path.join(ROOT, 'model', 'include', 'bqlm', 'violation.h')
EXPLORE_EXPECT_H = os.path.join(ROOT, 'kunit', 'explore_expect.h')

LINE = re.compile(r'#\s*[^:]*:\s+promote (\w+) "([^"]*)" states=(\d+) '
                  r'transitions=(\d+) violated=(0x[0-9a-f]+|0) '
                  r'verdict=(\d+) depth=(\d+)\s*$')
ROW_KEY = re.compile(r'^\t\{ \.key = "([^"]*)",')
ROW_END = re.compile(r'\},\s*$')


def checks():
    """enum bqlm_check's names, in order."""
    text = open(VIOLATION_H).read()
    body = re.search(r'enum bqlm_check \{(.*?)\};', text, re.S).group(1)
    names = re.findall(r'^\s*(BQLM_CHECK_\w+)', body, re.M)
    return [n for n in names if n != 'BQLM_CHECK_NR']


def short_bits():
    """The BIT_* names of explore_expect.h, by check name."""
    text = open(EXPLORE_EXPECT_H).read()
    return {m.group(2): m.group(1) for m in re.finditer(
        r'#define (BIT_\w+)\s+BQLM_CHECK_BIT\((BQLM_CHECK_\w+)\)', text)}


def mask_text(mask, names, bits):
    out = []
    for i, n in enumerate(names):
        if mask & (1 << i):
            out.append(bits.get(n, 'BQLM_CHECK_BIT(%s)' % n))
    if mask >> len(names):
        sys.exit('promote: mask %#x has bits past enum bqlm_check' % mask)
    return ' | '.join(out)


def row_text(key, f, names, bits):
    """One row: the key, the counts, the mask, the verdict and its depth."""
    states, transitions, violated, verdict, depth = f
    lines = ['\t{ .key = "%s",' % key,
             '\t  .states = %d, .transitions = %d,' % (states, transitions)]
    if violated:
        lines.append('\t  .violated = %s,' % mask_text(violated, names, bits))
    if verdict >= len(names):
        sys.exit('promote: %s: verdict %d is no check' % (key, verdict))
    if names[verdict] == 'BQLM_CHECK_NONE':
        lines.append('\t  .verdict = BQLM_CHECK_NONE },')
    else:
        lines.append('\t  .verdict = %s, .verdict_depth = %d },'
                     % (names[verdict], depth))
    return '\n'.join(lines) + '\n'


def old_rows(path):
    """The rows of an existing table file: [(key, text)], in order."""
    rows, cur, key = [], None, None
    if not os.path.exists(path):
        return rows
    for line in open(path):
        m = ROW_KEY.match(line)
        if m:
            key, cur = m.group(1), line
        elif cur is not None:
            cur += line
        if cur is not None and ROW_END.search(line):
            rows.append((key, cur))
            cur = None
    return rows


def table_text(name, rows):
    guard = '_BQLM_KUNIT_EXPECT_%s_H' % name.upper()
    head = ('/* SPDX-License-Identifier: GPL-2.0 */\n'
            '/*\n'
            ' * The figures of table %s: one row a case, what the case\'s\n'
            ' * search gives (struct explore_expect). Written by make promote\n'
            ' * (scripts/promote.py) from a run of the suites; review it as a\n'
            ' * diff, do not edit it by hand.\n'
            ' */\n'
            '#ifndef %s\n#define %s\n\n'
            'static const struct explore_expect %s_rows[] = {\n'
            % (name, guard, guard, name))
    tail = ('};\n\n'
            'static const struct explore_expect_table %s_expect = {\n'
            '\t.name = "%s",\n'
            '\t.rows = %s_rows,\n'
            '\t.nr = ARRAY_SIZE(%s_rows),\n'
            '};\n\n'
            '#endif /* %s */\n' % (name, name, name, name, guard))
    return head + ''.join(text for _, text in rows) + tail


def read_run(path):
    """{table: {key: figures}} and the tables in the order of the run."""
    tables, order, seen = {}, [], {}
    planned, results = None, 0
    for line in open(path, errors='replace'):
        if planned is None and re.match(r'^1\.\.(\d+)$', line):
            planned = int(line[3:])
        if re.match(r'^(not )?ok \d+ ', line):
            results += 1
        m = LINE.search(line)
        if not m:
            continue
        name, key = m.group(1), m.group(2)
        f = (int(m.group(3)), int(m.group(4)), int(m.group(5), 16),
             int(m.group(6)), int(m.group(7)))
        if name not in tables:
            tables[name] = {}
            order.append(name)
        if key in tables[name] and tables[name][key] != f:
            sys.exit('promote: %s "%s": two searches, different figures'
                     % (name, key))
        tables[name][key] = f
        seen[name] = seen.get(name, 0) + 1
    if planned is None or results != planned:
        sys.exit('promote: %s: the run did not finish (%s of %s suites); '
                 'nothing written' % (path, results, planned))
    return tables, order


def main():
    ap = argparse.ArgumentParser(description='rewrite kunit/expect/*.h '
                                 'from a run of the suites')
    ap.add_argument('--keep', action='store_true',
                    help='keep the rows of cases that did not run')
    ap.add_argument('--check', action='store_true',
                    help='write nothing; exit 1 if a file would change')
    ap.add_argument('ktap')
    args = ap.parse_args()

    names, bits = checks(), short_bits()
    tables, order = read_run(args.ktap)
    changed = []
    for name in order:
        path = os.path.join(EXPECT_DIR, name + '.h')
        old = old_rows(path)
        got = tables[name]
        rows = [(k, row_text(k, f, names, bits)) for k, f in got.items()]
        if args.keep:
            # the rows that ran, in the run's order; each of the others
            # kept after the row it followed
            for i, (k, text) in enumerate(old):
                if k in got:
                    continue
                at = 0
                for prev, _ in reversed(old[:i]):
                    keys = [r[0] for r in rows]
                    if prev in keys:
                        at = keys.index(prev) + 1
                        break
                rows.insert(at, (k, text))
        text = table_text(name, rows)
        before = open(path).read() if os.path.exists(path) else None
        dropped = [k for k, _ in old if k not in got and not args.keep]
        if text == before:
            continue
        changed.append(name)
        print('promote: kunit/expect/%s.h: %d rows%s' % (
            name, len(rows),
            ', dropped (not run): ' + ' '.join(dropped) if dropped else ''))
        if not args.check:
            os.makedirs(EXPECT_DIR, exist_ok=True)
            with open(path, 'w') as f:
                f.write(text)
    if not changed:
        print('promote: %d tables, no figure changed' % len(order))
    elif not args.check:
        print('promote: git diff kunit/expect/ shows the changes')
    return 1 if args.check and changed else 0


if __name__ == '__main__':
    sys.exit(main())
