# SPDX-License-Identifier: GPL-2.0
"""selftest_report.py - the recall and false alarms of make audit-selftest,
per rule and overall, as a Markdown file (build/audit-selftest.md).

For every re-created upstream bug (audit/tests/cN-*.patch) the self-test
runs rule CN on the patched copy of the driver and on the 6.12 tree (the
upstream fix). Here:

  recall       the cases whose patched driver rule CN flags ("finding"),
               over the cases of the rule;
  known miss   a case whose patch says "Audit-known-miss:": not flagged,
               counted in the recall as a miss, not a failure of the run;
  false alarm  a case whose tree, the fixed driver, rule CN does not pass:
               a "finding" or "cannot tell" there (a "cannot see" away
               from the patched lines is not one, as selftest.py judges).

The "seeing" cases and make's exit are counted apart: they are not
upstream bugs. So is the porting exercise (audit/tests/port/, port()
below): per rule, the variants of its class it flags (recall) and its
findings or "cannot tell" on the correct ports (false alarms).
"""

import time


def _rule_key(rule):
    try:
        return (0, int(rule[1:]))
    except (TypeError, ValueError):
        return (1, str(rule))


def per_rule(results):
    """{rule: {"cases", "flagged", "fix_clean", "false_alarms",
    "passed"}} over the patch tests of @results."""
    out = {}
    for r in results:
        rule = r.get("rule")
        if not rule or not rule.startswith("C") or r.get("kind"):
            continue
        s = out.setdefault(rule, {"cases": 0, "flagged": 0, "fix_clean": 0,
                                  "false_alarms": 0, "passed": 0,
                                  "not_run": 0})
        s["cases"] += 1
        if r.get("status") == "error":
            s["not_run"] += 1
            continue
        patched = [v["verdict"] for v in r.get("patched", [])]
        orig = [v["verdict"] for v in r.get("orig", [])]
        if "finding" in patched:
            s["flagged"] += 1
        near = any("next to the patched lines" in w
                   for w in r.get("why", []))
        # a tree whose only "cannot tell" is a spatch timeout was not
        # judged: not run, not a false alarm
        timed_out = orig == ["cannot tell"] and all(
            "spatch timeout" in c for v in r.get("orig", [])
            for c in v.get("cannot_tell", []))
        if orig in (["ok"], ["cannot see"]) and not near:
            s["fix_clean"] += 1
        elif timed_out:
            s["tree_timeouts"] = s.get("tree_timeouts", 0) + 1
        else:
            s["false_alarms"] += 1
        if r.get("status") == "pass":
            s["passed"] += 1
        if r.get("known_miss") and "finding" not in patched:
            s["known_misses"] = s.get("known_misses", 0) + 1
    return out


def port(results):
    """The porting exercise of @results: ({rule: {"variants", "flagged",
    "known_misses", "false_alarms", "unseen"}}, {the same summed}, [its
    result dicts]). A false alarm of a rule: a "finding" or "cannot tell"
    of it on a correct port; "unseen": a "cannot see" of it there."""
    cases = [r for r in results if r.get("kind") in ("port", "variant")]
    out = {}

    def slot(rule):
        return out.setdefault(rule, {"variants": 0, "flagged": 0,
                                     "known_misses": 0, "false_alarms": 0,
                                     "unseen": 0, "also_flags": 0})
    for r in cases:
        verdicts = r.get("verdicts", {})
        if r["kind"] == "port":
            for rule, v in verdicts.items():
                s = slot(rule)
                if v in ("finding", "cannot tell"):
                    s["false_alarms"] += 1
                elif v == "cannot see":
                    s["unseen"] += 1
            continue
        s = slot(r["rule"])
        s["variants"] += 1
        if verdicts.get(r["rule"]) == "finding":
            s["flagged"] += 1
        elif r.get("known_miss"):
            s["known_misses"] += 1
        for rule in r.get("flagged", []):
            if rule != r["rule"]:
                slot(rule)["also_flags"] += 1
    tot = {k: sum(s[k] for s in out.values())
           for k in ("variants", "flagged", "known_misses", "false_alarms",
                     "unseen", "also_flags")}
    return out, tot, cases


def _port_lines(results):
    rules, tot, cases = port(results)
    if not cases:
        return []
    ports = [r for r in cases if r["kind"] == "port"]
    lines = ["", "## The porting exercise", "",
             "audit/tests/port/DRIVER/: a correct BQL port of a 6.12 driver "
             "without BQL (port.patch) and variants, each the port plus one "
             "mistake of class CN (cN-*.patch). Every rule runs on each. "
             "Recall: the variants of class CN that rule CN flags; false "
             "alarms: a finding or \"cannot tell\" of the rule on a "
             "correct port (%d ports); unseen: a \"cannot see\" of it "
             "there; also flags: variants of another class the rule "
             "flags too." % len(ports), "",
             "| rule | variants | flagged | recall | known misses | false "
             "alarms | unseen on a port | also flags |",
             "|---|---|---|---|---|---|---|---|"]
    for rule in sorted(rules, key=_rule_key):
        s = rules[rule]
        lines.append("| %s | %d | %d | %s | %d | %d | %d | %d |" % (
            rule, s["variants"], s["flagged"], _pct(s["flagged"],
                                                    s["variants"]),
            s["known_misses"], s["false_alarms"], s["unseen"],
            s["also_flags"]))
    lines.append("| **all** | %d | %d | %s | %d | %d | %d | %d |" % (
        tot["variants"], tot["flagged"], _pct(tot["flagged"],
                                              tot["variants"]),
        tot["known_misses"], tot["false_alarms"], tot["unseen"],
        tot["also_flags"]))
    lines += ["", "| case | wants | flagged by | result |",
              "|---|---|---|---|"]
    for r in cases:
        lines.append("| `%s` | %s | %s | %s |" % (
            r["name"], "no rule" if r["kind"] == "port" else r["rule"],
            ", ".join(r.get("flagged", [])) or "none",
            r.get("status", "?").upper() + (
                " (known miss)" if r.get("known_miss") and r.get(
                    "status") == "pass" and r["rule"] not in r.get(
                        "flagged", []) else "")))
    km = [r for r in cases if r.get("known_miss")]
    if km:
        lines += ["", "Known misses: " + "; ".join(
            "`%s` (%s)" % (r["name"], r["known_miss"]) for r in km) + "."]
    return lines


def _pct(a, b):
    return "%d %%" % round(100.0 * a / b) if b else "-"


def write(results, path, elapsed, jobs):
    """Write the report of @results (selftest.py's result dicts) to
    @path."""
    rules = per_rule(results)
    tot = {k: sum(s.get(k, 0) for s in rules.values())
           for k in ("cases", "flagged", "fix_clean", "false_alarms",
                     "tree_timeouts", "passed", "not_run")}
    lines = ["# make audit-selftest: recall and false alarms",
             "",
             "Generated by audit/selftest.py (audit/selftest_report.py) on "
             "%s, %.0f s of wall time with %d jobs. Each case re-creates "
             "one upstream bug in a 6.12 driver (audit/tests/); its rule is "
             "run on the patched driver (recall: flagged) and on the 6.12 "
             "tree, which holds the upstream fix (a false alarm: the rule "
             "does not pass the fixed driver)." % (
                 time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                 elapsed, jobs),
             "",
             "| rule | cases | flagged | recall | fix clean | false alarms "
             "| tree timed out | passed | not run |",
             "|---|---|---|---|---|---|---|---|---|"]
    for rule in sorted(rules, key=_rule_key):
        s = rules[rule]
        lines.append("| %s | %d | %d | %s | %d | %d | %d | %d | %d |" % (
            rule, s["cases"], s["flagged"], _pct(s["flagged"], s["cases"]),
            s["fix_clean"], s["false_alarms"], s.get("tree_timeouts", 0),
            s["passed"], s["not_run"]))
    lines.append("| **all** | %d | %d | %s | %d | %d | %d | %d | %d |" % (
        tot["cases"], tot["flagged"], _pct(tot["flagged"], tot["cases"]),
        tot["fix_clean"], tot["false_alarms"], tot["tree_timeouts"],
        tot["passed"], tot["not_run"]))
    km = [r for r in results if r.get("known_miss")]
    if km:
        lines += ["", "Known misses (in the recall, not failures): " +
                  "; ".join("`%s` (%s)" % (r["name"], r["known_miss"])
                            for r in km) + "."]
    lines += ["", "## The cases", "",
              "| case | rule | upstream fix | tree (the fix) | patched | "
              "result |", "|---|---|---|---|---|---|"]
    for r in results:
        if not (r.get("rule") or "").startswith("C") or r.get("kind"):
            continue
        o = "/".join(v["verdict"] for v in r.get("orig", [])) or "-"
        p = "/".join(v["verdict"] for v in r.get("patched", [])) or "-"
        lines.append("| `%s` | %s | %s | %s | %s | %s |" % (
            r["name"], r["rule"], r.get("fix") or "?", o, p,
            r.get("status", "?").upper()))
    lines += _port_lines(results)
    other = [r for r in results if not (r.get("rule") or "").startswith(
        "C") and not r.get("kind")]
    if other:
        n = sum(1 for r in other if r.get("status") == "pass")
        lines += ["", "Besides: %d seeing and make-exit cases, %d passed "
                  "(not upstream bugs; docs/audit.md)." % (len(other), n)]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return rules, tot
