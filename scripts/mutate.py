#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# scripts/mutate.py - "make mutate": mutation testing of model/ against the
# userspace suites (docs/testing-the-tests.md).
#
# Every mutation site of model/*.c is listed (relational and arithmetic
# operator swaps, logical operator swaps, off-by-one integer constants,
# deleted statements, two adjacent calls swapped); a seeded sample of them
# (MUTATE_SAMPLE, all with 0) is run: the mutated file is compiled as the
# ASan flavour compiles it (-O1, ASan+UBSan, without -Werror), linked with
# the other objects of build/asan/bqlm-kunit (built once by make), and the
# suites run with a time limit, stopped at their first failure. A mutant
# is
#   killed      a case failed, a sanitizer stopped it, or it hit the limit;
#   survived    every case passed;
#   equivalent  its object code is the original's (.text identical), or
#               it is argued equivalent in scripts/mutate-equivalent.txt;
#   stillborn   it does not compile (not counted).
# Survivors are then run against the CLI's cases (make check-cli, with the
# CLI linked against the mutant): "killed by check-cli" if one fails.
#
# Usage: scripts/mutate.py [--sample N] [--seed S] [--jobs J] [--files GLOB]
#                          [--list] [--site FILE:LINE] [--keep DIR]
# Exit status: 0 when no non-equivalent mutant survived, 1 otherwise.

import argparse
import fnmatch
import glob
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(REPO, "build")
ASAN = os.path.join(BUILD, "asan")
OUT = os.path.join(BUILD, "mutate")

CFLAGS = ["-std=gnu11", "-Wall", "-Wextra", "-Wno-sign-compare", "-O1", "-g",
          "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
          "-fno-omit-frame-pointer", "-Imodel/include", "-Imodel/core",
          "-Iuserspace-tests/include", "-Ikunit",
          '-DBQLM_SRCDIR="%s"' % REPO]
REL_CFLAGS = ["-std=gnu11", "-Wall", "-Wextra", "-Wno-sign-compare", "-O2",
              "-Imodel/include", "-Imodel/core", "-Iuserspace-tests/include",
              "-Ikunit", '-DBQLM_SRCDIR="%s"' % REPO]

# ---------------------------------------------------------------------------
# A small C lexer: tokens of code, with comments, strings, character
# constants and preprocessor lines left out.

TOKEN = re.compile(r"""
    (?P<num>0[xX][0-9a-fA-F]+[uUlL]*|[0-9]+[uUlL]*)
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op><<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||\+=|-=|\*=|/=|%=|&=|\|=|\^=|[-+*/%<>=!&|^~?:;,.(){}\[\]])
""", re.X)


def lex(text):
    """Tokens (kind, text, offset) of @text's code."""
    toks = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if c == "\n":
            line_start = True
            i += 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if line_start and c == "#":
            # a preprocessor line, with its continuations
            while i < n:
                j = text.find("\n", i)
                if j < 0:
                    i = n
                    break
                if text[j - 1] == "\\":
                    i = j + 1
                    continue
                i = j
                break
            continue
        line_start = False
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            toks.append(("str", text[i:j + 1], i))
            i = j + 1
            continue
        m = TOKEN.match(text, i)
        if not m:
            i += 1
            continue
        toks.append((m.lastgroup, m.group(), i))
        i = m.end()
    return toks


TYPE_WORDS = {"int", "unsigned", "signed", "char", "short", "long", "bool",
              "void", "struct", "enum", "union", "const", "static", "u8",
              "u16", "u32", "u64", "s32", "s64", "size_t", "double", "float",
              "bqlm_xemit_t", "va_list", "typeof"}
KEYWORDS = {"if", "else", "for", "while", "do", "switch", "case", "default",
            "return", "goto", "sizeof", "break", "continue"}

REL = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
ARITH = {"+": "-", "-": "+", "*": "/", "/": "*", "%": "*", "+=": "-=",
         "-=": "+=", "++": "--", "--": "++", "<<": ">>", ">>": "<<",
         "&": "|", "|": "&", "^": "&"}
LOGIC = {"&&": "||", "||": "&&"}


def binary_at(toks, k):
    """Is the operator at @k binary (an operand before it)?"""
    if k == 0:
        return False
    kind, text, _ = toks[k - 1]
    return kind in ("num", "id", "str") and text not in KEYWORDS or \
        text in (")", "]")


def sites_of(path):
    """Mutation sites of one file: dicts with file, offset, old, new, kind."""
    text = open(os.path.join(REPO, path)).read()
    toks = lex(text)
    sites = []
    depth = 0		# braces
    paren = 0		# parentheses (for headers)
    stmt_start = None	# token index where the current statement began
    prev_stmt = None	# (start offset, end offset, is_call) of the last one

    def add(kind, off, old, new, end=None):
        sites.append({"file": path, "offset": off, "end": end or off + len(old),
                      "old": old, "new": new, "kind": kind})

    for k, (kind, t, off) in enumerate(toks):
        if t == "{":
            depth += 1
            stmt_start = k + 1
            prev_stmt = None
            continue
        if t == "}":
            depth -= 1
            stmt_start = k + 1
            prev_stmt = None
            continue
        if t == "(":
            paren += 1
        elif t == ")":
            paren -= 1
        if depth == 0:
            continue
        if kind == "op" and t in REL and binary_at(toks, k):
            add("relational", off, t, REL[t])
        elif kind == "op" and t in LOGIC:
            add("logical", off, t, LOGIC[t])
        elif kind == "op" and t in ARITH:
            nxt = toks[k + 1][1] if k + 1 < len(toks) else ""
            pointer = t == "*" and (nxt in (")", ",") or
                                    toks[k - 1][1] in TYPE_WORDS or
                                    (k > 1 and toks[k - 2][1] in
                                     ("struct", "enum", "union")))
            if pointer:
                continue
            if t in ("++", "--") or t.endswith("=") or binary_at(toks, k):
                # '*' after a type name is a pointer, '&' before an
                # operand an address: binary_at() leaves them out
                add("arithmetic", off, t, ARITH[t])
        elif kind == "num":
            m = re.match(r"(0[xX][0-9a-fA-F]+|[0-9]+)(.*)", t)
            v = int(m.group(1), 0)
            fmt = (lambda x: hex(x)) if m.group(1)[:2].lower() == "0x" else str
            add("constant", off, t, fmt(v + 1) + m.group(2))
            if v > 0:
                add("constant", off, t, fmt(v - 1) + m.group(2))
        if t == ";" and paren == 0 and stmt_start is not None:
            first = toks[stmt_start] if stmt_start < len(toks) else None
            start_off = first[2] if first else off
            stmt = toks[stmt_start:k]
            words = [x[1] for x in stmt]
            is_decl = bool(words) and (words[0] in TYPE_WORDS or
                                       (len(words) > 1 and stmt[0][0] == "id" and
                                        stmt[1][0] == "id") or
                                       (len(words) > 2 and stmt[0][0] == "id" and
                                        words[1] == "*" and stmt[2][0] == "id" and
                                        words[0] not in KEYWORDS))
            is_call = (len(words) >= 3 and stmt[0][0] == "id" and
                       words[1] == "(" and words[-1] == ")" and
                       words[0] not in KEYWORDS)
            plain = words and not is_decl and words[0] not in (
                "return", "case", "default", "goto", "else", "do")
            # a statement that is the whole body of an if/else/for/while
            # (not braced) starts after ")" or "else": leave it
            before = toks[stmt_start - 1][1] if stmt_start > 0 else ""
            if plain and before in (";", "{", "}", ":"):
                src = text[start_off:off + 1]
                add("deleted", start_off, src,
                    re.sub(r"[^\n]", " ", src[:-1]) + ";", off + 1)
                if prev_stmt and prev_stmt[2] and is_call:
                    a0, a1, _ = prev_stmt
                    first_src = text[a0:a1]
                    gap = text[a1:start_off]
                    if "\n" not in first_src and "\n" not in src and \
                            first_src != src:
                        add("swapped calls", a0, text[a0:off + 1],
                            src + gap + first_src, off + 1)
                prev_stmt = (start_off, off + 1, is_call)
            else:
                prev_stmt = None
            stmt_start = k + 1
        elif t == ":" and paren == 0 and stmt_start == k - 1:
            stmt_start = k + 1	# a label or a case: the statement follows
    for s in sites:
        s["line"] = text.count("\n", 0, s["offset"]) + 1
        s["text"] = text.splitlines()[s["line"] - 1].strip()
    return sites


def model_sources():
    """model/*.c of the userspace build (the Kbuild object list)."""
    out = subprocess.run(["make", "-s", "--no-print-directory", "-f", "Makefile",
                          "-f", "-", "print-model-srcs"],
                         input="print-model-srcs:\n\t@echo $(MODEL_SRCS)\n",
                         text=True, capture_output=True, cwd=REPO)
    srcs = out.stdout.split()
    if out.returncode or not srcs:
        srcs = sorted(os.path.relpath(p, REPO)
                      for p in glob.glob(os.path.join(REPO, "model", "*", "*.c")))
    return srcs


def site_id(s):
    return "%s:%d: %s: '%s' -> '%s'" % (s["file"], s["line"], s["kind"],
                                      short(s["old"]), short(s["new"]))


def short(x):
    x = " ".join(x.split())
    return x if len(x) <= 60 else x[:57] + "..."

# ---------------------------------------------------------------------------
# Equivalence arguments: scripts/mutate-equivalent.txt, one a line:
#   FILE <tab> LINE TEXT (stripped) <tab> OLD -> NEW <tab> the argument


def load_equivalent():
    path = os.path.join(REPO, "scripts", "mutate-equivalent.txt")
    eq = {}
    if not os.path.exists(path):
        return eq
    for ln in open(path):
        if not ln.strip() or ln.startswith("#"):
            continue
        f = ln.rstrip("\n").split("\t")
        if len(f) >= 4:
            ctx = f[4].strip() if len(f) >= 5 else ""
            if ctx.startswith("after: "):
                ctx = ctx[len("after: "):]
            eq.setdefault((f[0], f[1].strip(), f[2].strip()), []).append((f[3], ctx))
    return eq


def eq_key(s):
    return (s["file"], s["text"], "%s -> %s" % (short(s["old"]), short(s["new"])))


def eq_why(eq, r):
    """Why @r is argued equivalent, or None. A line of the list with a
    fifth field "after: TEXT" matches only below a line holding TEXT (at
    most 8 lines above), for a line such as 'break;' that a file has many
    of."""
    for why, ctx in eq.get(eq_key(r), []):
        if not ctx:
            return why
        try:
            lines = open(os.path.join(REPO, r["file"])).read().split("\n")
        except OSError:
            continue
        n = r["line"] - 1
        if any(ctx in ln for ln in lines[max(0, n - 8):n]):
            return why
    return None

# ---------------------------------------------------------------------------


def run(cmd, cwd=REPO, timeout=None, env=None, input=None):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                          errors="replace", timeout=timeout, env=env,
                          input=input)


def text_of(obj):
    """The object's code and data: the disassembly of its .text section,
    then the bytes and relocations of its data sections (.rodata*, .data*:
    a constant of a static table, such as an option's range, is there)."""
    r = run(["objdump", "-d", "--no-show-raw-insn", "-j", ".text", obj])
    body = r.stdout.split("\n", 3)[-1] if r.returncode == 0 else None
    if body is None:
        return None
    # addresses of relocations to .rodata/.data strings shift with columns
    body = re.sub(r"<\.L[^>]*>|# [0-9a-f]+ <[^>]*>", "", body)
    h = run(["objdump", "-h", obj])
    secs = re.findall(r"^\s*\d+\s+(\.(?:rodata|data)\S*)", h.stdout, re.M)
    for sec in secs:
        d = run(["objdump", "-s", "-r", "-j", sec, obj])
        if d.returncode:
            return None
        body += d.stdout.split("\n", 3)[-1]
    return body


def run_suites(binary, limit):
    """(verdict, detail, seconds): the suites, stopped at a first failure."""
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1",
               UBSAN_OPTIONS="print_stacktrace=0:halt_on_error=1")
    t0 = time.time()
    p = subprocess.Popen([binary], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, errors="replace",
                         env=env, cwd=REPO, start_new_session=True)
    timer = threading.Timer(limit, lambda: os.killpg(p.pid, 9))
    timer.start()
    failed = None
    suite = ""
    tail = []
    try:
        for ln in p.stdout:
            tail = (tail + [ln.rstrip()])[-6:]
            m = re.match(r"^    # Subtest: (\S+)", ln)
            if m:
                suite = m.group(1)
            m = re.match(r"^\s+not ok \d+ (\S+)", ln)
            if m and failed is None:
                failed = "%s.%s" % (suite, m.group(1))
                os.killpg(p.pid, 9)
                break
            if ("ERROR: AddressSanitizer" in ln or "runtime error" in ln or
                    "LeakSanitizer" in ln) and failed is None:
                failed = "sanitizer: " + ln.strip()[:100]
    finally:
        p.wait()
        alive = timer.is_alive()
        timer.cancel()
    secs = time.time() - t0
    if failed:
        return "killed", failed, secs
    if not alive:
        return "killed", "time limit (%.0f s)" % limit, secs
    if p.returncode != 0:
        return "killed", "exit %d: %s" % (p.returncode, " | ".join(tail[-2:])), secs
    return "survived", "", secs


def check_cli(work, rel, mobj):
    """Survivor, stage 2: the CLI built with the mutant, make check-cli."""
    orig = os.path.join(BUILD, "rel", rel[:-2] + ".o")
    libobjs = [os.path.join(BUILD, "rel", x[:-2] + ".o") for x in SRCS]
    libobjs = [mobj if o == orig else o for o in libobjs]
    tools = sorted(glob.glob(os.path.join(BUILD, "rel", "tools", "*.o")))
    cli = os.path.join(work, "bqlm")
    r = run(["gcc", "-o", cli] + tools + libobjs + ["-lm"])
    if r.returncode:
        return None
    r = run(["bash", "scripts/check-cli.sh", cli, "userspace-tests/cli/cases.txt"],
            timeout=600)
    if r.returncode:
        fails = [ln for ln in r.stdout.splitlines() if "FAIL" in ln]
        return fails[0] if fails else "check-cli failed"
    return ""


def mutate_one(s, job, limit, keep):
    work = os.path.join(OUT, "job%d" % job)
    src = os.path.join(REPO, s["file"])
    text = open(src).read()
    mutated = text[:s["offset"]] + s["new"] + text[s["end"]:]
    rel = s["file"]
    msrc = os.path.join(work, rel)
    os.makedirs(os.path.dirname(msrc), exist_ok=True)
    with open(msrc, "w") as f:
        f.write(mutated)
    mobj = os.path.join(work, "asan", rel[:-2] + ".o")
    os.makedirs(os.path.dirname(mobj), exist_ok=True)
    r = run(["gcc"] + CFLAGS + ["-c", msrc, "-o", mobj])
    if r.returncode:
        return dict(s, verdict="stillborn", detail=r.stderr.strip().splitlines()[0]
                    if r.stderr.strip() else "", secs=0)
    orig = os.path.join(ASAN, rel[:-2] + ".o")
    t_m, t_o = text_of(mobj), text_of(orig)
    if t_m is not None and t_m == t_o:
        return dict(s, verdict="equivalent", detail="same object code", secs=0)
    objs = [mobj if o == orig else o for o in ALL_OBJS]
    binary = os.path.join(work, "bqlm-kunit")
    r = run(["gcc", "-fsanitize=address,undefined", "-Wl,--wrap=calloc", "-o",
             binary] + objs + ["-lcmocka"])
    if r.returncode:
        return dict(s, verdict="stillborn", detail="link: " +
                    (r.stderr.strip().splitlines() or [""])[0], secs=0)
    verdict, detail, secs = run_suites(binary, limit)
    if verdict == "survived":
        mrel = os.path.join(work, "rel", rel[:-2] + ".o")
        os.makedirs(os.path.dirname(mrel), exist_ok=True)
        if run(["gcc"] + REL_CFLAGS + ["-c", msrc, "-o", mrel]).returncode == 0:
            why = check_cli(work, rel, mrel)
            if why:
                verdict, detail = "killed", "check-cli: " + why
    if keep and verdict == "survived":
        d = os.path.join(keep, "%s_%d" % (rel.replace("/", "_"), s["line"]))
        os.makedirs(d, exist_ok=True)
        shutil.copy(msrc, d)
    return dict(s, verdict=verdict, detail=detail, secs=secs)


def env_int(name, default):
    v = os.environ.get(name, default)
    try:
        return int(v)
    except ValueError:
        sys.exit("mutate: %s must be a whole number, not '%s'" % (name, v))


def main():
    global ALL_OBJS, SRCS
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sample", type=int,
                    default=env_int("MUTATE_SAMPLE", "200"),
                    help="mutants to run, a seeded sample (0: every site)")
    ap.add_argument("--seed", type=int,
                    default=env_int("MUTATE_SEED", "1"))
    ap.add_argument("--jobs", type=int,
                    default=env_int("MUTATE_JOBS", "2"))
    ap.add_argument("--files", default=os.environ.get("MUTATE_FILES", "model/*.c"))
    ap.add_argument("--list", action="store_true", help="list the sites, run nothing")
    ap.add_argument("--site", action="append", default=[],
                    help="only the sites at FILE:LINE (repeatable)")
    ap.add_argument("--keep", help="copy each survivor's mutated file here")
    ap.add_argument("--resume", action="store_true",
                    help="take the verdicts of build/mutate/results.jsonl, run the rest")
    ap.add_argument("--rerun-survivors", action="store_true",
                    help="with --resume: run the survivors again (new tests)")
    a = ap.parse_args()
    if a.jobs < 1 or a.sample < 0:
        sys.exit("mutate: MUTATE_JOBS must be at least 1 and MUTATE_SAMPLE at least 0")

    SRCS = model_sources()
    srcs = [f for f in SRCS if fnmatch.fnmatch(f, a.files)]
    sites = [s for f in srcs for s in sites_of(f)]
    if a.site:
        want = set(a.site)
        sites = [s for s in sites if "%s:%d" % (s["file"], s["line"]) in want]
    if a.list:
        for s in sites:
            print(site_id(s))
        print("mutate: %d sites in %d files" % (len(sites), len(srcs)))
        return 0
    chosen = sites
    if a.sample and a.sample < len(sites) and not a.site:
        chosen = random.Random(a.seed).sample(sites, a.sample)
        chosen.sort(key=lambda s: (s["file"], s["offset"]))
    binary = os.path.join(ASAN, "bqlm-kunit")
    if not os.path.exists(binary):
        sys.exit("mutate: build/asan/bqlm-kunit is missing (make build/asan/bqlm-kunit)")
    out = run(["make", "-s", "--no-print-directory", "-f", "Makefile", "-f", "-",
               "print-test-objs"],
              input="print-test-objs:\n\t@echo $(call TEST_OBJS,asan)\n")
    ALL_OBJS = [os.path.join(REPO, o) for o in out.stdout.split()]
    os.makedirs(OUT, exist_ok=True)
    verdict, _, base = run_suites(binary, 3600)
    if verdict != "survived":
        sys.exit("mutate: the unmutated suites fail: fix them first")
    limit = max(3 * base, base + 60)
    print("mutate: %d sites in %d files; running %d mutants (seed %d), %d jobs; "
          "the unmutated suites take %.1f s, limit %.0f s a mutant" %
          (len(sites), len(srcs), len(chosen), a.seed, a.jobs, base, limit),
          flush=True)
    eq = load_equivalent()
    results = []
    done = {}
    jsonl = os.path.join(OUT, "results.jsonl")
    if a.resume and os.path.exists(jsonl):
        for ln in open(jsonl):
            r = json.loads(ln)
            done[r["id"]] = r
    elif os.path.exists(jsonl):
        os.remove(jsonl)
    lock = threading.Lock()
    free_jobs = list(range(a.jobs))

    def one(s):
        if site_id(s) in done and (done[site_id(s)]["verdict"] != "survived" or
                                   not a.rerun_survivors):
            r = dict(s, verdict=done[site_id(s)]["verdict"],
                     detail=done[site_id(s)].get("detail", ""), secs=0)
        else:
            with lock:
                job = free_jobs.pop()
            try:
                r = mutate_one(s, job, limit, a.keep)
            finally:
                with lock:
                    free_jobs.append(job)
            with lock, open(jsonl, "a") as f:
                f.write(json.dumps({"id": site_id(r), "verdict": r["verdict"],
                                    "detail": r["detail"]}) + "\n")
        why = eq_why(eq, r) if r["verdict"] == "survived" else None
        if why:
            r["verdict"], r["detail"] = "equivalent", "argued: " + why
        with lock:
            results.append(r)
            print("%-10s %s%s" % (r["verdict"].upper(), site_id(r),
                                  "  [%s]" % r["detail"] if r["detail"] and
                                  r["verdict"] != "stillborn" else ""), flush=True)
        return r

    t0 = time.time()
    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        list(ex.map(one, chosen))
    count = {v: sum(1 for r in results if r["verdict"] == v)
             for v in ("killed", "survived", "equivalent", "stillborn")}
    with open(os.path.join(OUT, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    surv = sorted((r for r in results if r["verdict"] == "survived"),
                  key=lambda r: (r["file"], r["line"]))
    if surv:
        print("\nsurvivors:")
        for r in surv:
            print("  " + site_id(r))
            print("      " + r["text"])
    compiled = len(results) - count["stillborn"]
    print("\nmutate: %d of %d sites sampled (seed %d): %d mutants compiled, "
          "%d killed, %d survived, %d equivalent (%d stillborn); score %.1f%% "
          "of the non-equivalent; %.0f s" %
          (len(chosen), len(sites), a.seed, compiled, count["killed"],
           count["survived"], count["equivalent"], count["stillborn"],
           100.0 * count["killed"] / max(1, compiled - count["equivalent"]),
           time.time() - t0))
    return 1 if surv else 0


if __name__ == "__main__":
    sys.exit(main())
