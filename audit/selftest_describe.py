# SPDX-License-Identifier: GPL-2.0
"""selftest_describe - the audit's descriptions against docs/nic.md's table.

docs/nic.md gives, by hand, the "bqlm explore nic" options of twelve
drivers with BQL (the table "driver | sent call | what else the tree shows |
options | ..."). This check runs the audit on those drivers' files and
compares, driver by driver, the description the audit derives
(audit/describe.py) with the table's options: both are resolved by
"bqlm explore nic ... --depth 1" (its "options:" line lists every option,
the profile's included) and compared on describe.compared()'s keys (every
option but the bound; a reset path by where its reset sits, only where its
cycles run).

A difference is a failure unless KNOWN lists it with the reason (where the
audit reads the driver more exactly than the hand-written row, or where it
cannot read what the row says); a KNOWN entry that no longer differs fails
too, so that the list stays true.

Run by audit/selftest.py (make audit-selftest), or alone:
  python3 audit/selftest_describe.py --kdir DIR [--bqlm build/bqlm]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import describe  # noqa: E402

# Why a row and the audit differ, by kind.
_BUSY = ("the driver has a NETDEV_TX_BUSY path (the audit names its site) "
         "that the row leaves out; behind a correct ring-full stop it is "
         "not reached (the explorer says UNREACHED, exit 5); not read "
         "against the driver by hand")
_DROP = ("a drop (a DMA mapping error) in ndo_start_xmit the row leaves "
         "out; not read by hand")
_FIND = ("the audit's description carries a finding of this driver on the "
         "6.12 tree (docs/audit.md's triage); the row gives a clean reading")
_LOCKED = ("the ring-full stop has no barrier and re-check, and the "
           "completion holds the lock the stop holds (C7 sets it aside): "
           "with --napi-txlock on, as the row states, the same verdict; "
           "the audit's reading is the code's (the row's own text says so)")
_DOWN = ("no down flag tested before the completion's wake (the audit's "
         "reading); the row keeps the generic driver's; not read by hand")
_OPEN = ("the audit reads a BQL reset reached from ndo_open (branches "
         "merged); the row gives the generic open; not read by hand")
_MLX4 = ("read by hand (en_tx.c:1099-1133): the ring-full stop comes "
         "before the sent call, and its re-check comes after the doorbell "
         "with smp_rmb() only, no full barrier between the stop's set_bit() "
         "and the re-read of the ring (the model's --drv-stop no-mb is the "
         "faithful reading); the table's helper and the audit's no-recheck "
         "(a re-check after the doorbell is not read as one: an audit "
         "limit) are both approximations, and neither run is a claim")

# (the table's driver, option): (the table's value, the audit's, why)
KNOWN = {
    ("e1000e", "drops"): ("0", "1", _DROP),
    ("e1000e", "error-kick"): ("ring", "skip", _FIND + " (C6 drop-tail)"),
    ("e1000e", "tx-busy"): ("none", "try-stop", _BUSY),
    ("igb", "open:reset"): ("none", "reset", _OPEN),
    ("igb", "tx-busy"): ("none", "try-stop", _BUSY),
    ("ixgbe", "tx-busy"): ("none", "try-stop", _BUSY),
    ("bnxt_en", "drops"): ("0", "1", _DROP),
    ("bnxt_en", "tx-busy"): ("none", "try-stop", _BUSY),
    ("tg3", "down-cond"): ("path", "none", _DOWN),
    ("tg3", "drops"): ("0", "1", _DROP),
    ("tg3", "open:reset"): ("none", "reset", _OPEN),
    ("tg3", "tx-busy"): ("none", "stop", _BUSY),
    ("mlx4_en", "down-cond"): ("path", "none", _DOWN),
    ("mlx4_en", "drv-stop"): ("helper", "no-recheck", _MLX4),
    ("stmmac", "doorbell"): ("always", "xmit-stopped",
                             "the tail-pointer write goes through "
                             "stmmac_set_tx_tail_ptr(), a callback the audit "
                             "does not follow; netdev_xmit_more() sets the "
                             "interrupt bit only: the row is right (an "
                             "audit limit)"),
    ("stmmac", "down-cond"): ("path", "none", _DOWN),
    ("stmmac", "drv-stop"): ("helper", "no-recheck", _LOCKED),
    ("stmmac", "tx-busy"): ("none", "stop", _BUSY),
    ("r8169", "down-cond"): ("path", "none", _DOWN),
    ("r8169", "open:reset"): ("none", "reset", _OPEN),
    ("r8169", "tx-busy"): ("none", "stop", _BUSY),
    ("bcmgenet", "down-cond"): ("path", "none", _DOWN),
    ("bcmgenet", "drops"): ("0", "1", _DROP),
    ("bcmgenet", "drv-stop"): ("helper", "no-recheck", _LOCKED),
    ("bcmgenet", "error-kick"): ("ring", "skip", _FIND + " (C6 drop-tail)"),
    ("ena", "down-cond"): ("path", "none", _DOWN),
    ("virtio_net", "queues"): ("1", "2", "virtio_net allocates "
                               "max_queue_pairs tx queues (several, read by "
                               "value); the profile the row uses states one"),
    ("mtk_eth_soc", "down-cond"): ("path", "none", _DOWN),
    ("mtk_eth_soc", "drv-stop"): ("helper", "no-recheck",
                                  _FIND + " (C7 stop without re-check)"),
    ("mtk_eth_soc", "drv-wake"): ("helper", "no-mb",
                                  "mtk_wake_queue() wakes with no barrier "
                                  "or completed call before it in its own "
                                  "function (the audit's reading); not read "
                                  "by hand"),
    ("mtk_eth_soc", "open:reset"): ("none", "reset", _OPEN),
    ("mtk_eth_soc", "tx-busy"): ("none", "stop", _BUSY),
    ("xilinx_axienet, dmaengine path", "completion"): (
        "irq", "napi", "the module has the legacy AXI DMA path (a NAPI "
        "poll) and the dmaengine path (a dmaengine callback); the audit "
        "states one completion per module, the row is the dmaengine "
        "path's"),
    ("xilinx_axienet, dmaengine path", "doorbell"): (
        "xmit-stopped", "always", "the dmaengine path reads no "
        "netdev_xmit_more(); the row's profile runs batches of 1, where "
        "the two are the same"),
    ("xilinx_axienet, dmaengine path", "down-cond"): ("path", "none", _DOWN),
    ("xilinx_axienet, dmaengine path", "tx-busy"): ("none", "stop", _BUSY),
}


def table_rows(path):
    """docs/nic.md's drivers table: [(driver, file, options)]."""
    rows = []
    with open(path) as f:
        text = f.read()
    m = re.search(r"^\| driver \| sent call \(6\.12 line\) \|.*?\n\n", text,
                  re.S | re.M)
    if not m:
        return rows
    for line in m.group(0).splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) < 4:
            continue
        fm = re.search(r"\(`([^`]+)`\)", cells[0])
        om = re.search(r"`([^`]+)`", cells[3])
        if not fm or not om:
            continue
        rel = fm.group(1)
        if not rel.startswith("drivers/"):
            rel = "drivers/net/ethernet/" + rel
        rows.append((cells[0].split(" (")[0], rel, om.group(1)))
    return rows


def resolve(bqlm, options):
    """Every option's value, as the explorer reads @options."""
    r = subprocess.run([bqlm, "explore", "nic"] + options.split() +
                       ["--depth", "1", "--no-trace"], capture_output=True,
                       text=True, timeout=120)
    for line in r.stdout.splitlines():
        if line.startswith("options: "):
            return describe.parse(line[len("options: "):])
    raise RuntimeError("bqlm explore nic %s: %s" % (options,
                                                    r.stderr.strip()))


def compare(bqlm, rows, doc):
    """[(driver, status, [lines])] for each row of the table."""
    out = []
    for name, rel, opts in rows:
        drv = [d for d in doc["drivers"] if rel in d["files"]]
        if not drv or "options" not in drv[0].get("description", {}):
            out.append((name, "fail", ["the audit has no description of "
                                       "%s (%s)" % (rel, drv and drv[0].get(
                                           "description"))]))
            continue
        d = drv[0]["description"]
        full = resolve(bqlm, opts)
        runs = {p for p in describe.PATHS
                if full[describe.CYCLES[p]] != "0"}
        want = describe.compared(full, runs)
        got = describe.compared(resolve(bqlm, describe.command(
            d["options"])), runs)
        lines = []
        for k in sorted(set(want) | set(got)):
            a, b = want.get(k), got.get(k)
            known = KNOWN.get((name, k))
            if a == b:
                if known:
                    lines.append("--%s: listed as a known difference, but "
                                 "both say %s" % (k, a))
                continue
            if known and known[0] == a and known[1] == b:
                continue
            lines.append("--%s: the table %s, the audit %s (%s)" % (
                k, a, b, d["why"].get(k.split(":")[0], "the generic "
                                      "driver's")))
        out.append((name, "fail" if lines else "pass", lines))
    return out


def run(kdir, jobs, bqlm, nic_md=os.path.join(REPO, "docs", "nic.md")):
    """The check, as audit/selftest.py's results."""
    rows = table_rows(nic_md)
    gen = resolve(bqlm, "--profile generic --packets 3")
    stale = sorted(k for k in describe.ORDER
                   if gen.get(k) != describe.DEFAULT.get(k))
    if stale:
        return [{"name": "describe-default", "rule": "desc", "fix": "",
                 "status": "fail", "why": [
                     "describe.DEFAULT is not the generic profile: " +
                     ", ".join("--%s %s (profile: %s)" % (
                         k, describe.DEFAULT.get(k), gen.get(k))
                               for k in stale)]}]
    if len(rows) < 12:
        return [{"name": "describe-table", "rule": "desc", "fix": "",
                 "status": "fail", "why": ["docs/nic.md's drivers table "
                                           "has %d rows, want 12 or more" %
                                           len(rows)]}]
    files = sorted({os.path.dirname(rel) if not rel.endswith(
        ("virtio_net.c", "tg3.c", "r8169_main.c")) else rel
        for n, rel, o in rows})
    fd, path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    try:
        cmd = [sys.executable, os.path.join(HERE, "audit.py"), "--kdir",
               kdir, "--files", " ".join(files), "--jobs", str(jobs),
               "--bqlm", bqlm, "--json", path, "--quiet", "--no-explore"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError):
            return [{"name": "describe-table", "rule": "desc", "fix": "",
                     "status": "error", "detail": "audit failed: " +
                     r.stderr[-300:]}]
    finally:
        os.unlink(path)
    res = []
    for name, st, lines in compare(bqlm, rows, doc):
        res.append({"name": "describe-" + re.sub(r"\W+", "_", name),
                    "rule": "desc", "fix": "nic.md", "status": st,
                    "why": lines})
    return res


def main(argv=None):
    ap = argparse.ArgumentParser(prog="selftest_describe")
    ap.add_argument("--kdir", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--bqlm", default=os.path.join(REPO, "build", "bqlm"))
    ap.add_argument("--nic-md", default=os.path.join(REPO, "docs",
                                                     "nic.md"))
    args = ap.parse_args(argv)
    res = run(args.kdir, args.jobs, args.bqlm, args.nic_md)
    bad = 0
    for r in res:
        print("%-40s %s" % (r["name"], r["status"].upper()))
        for w in r.get("why", []):
            print("    !! %s" % w)
        bad += r["status"] != "pass"
    print("describe: %d drivers, %d differ" % (len(res), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
