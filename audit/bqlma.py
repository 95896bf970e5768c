# SPDX-License-Identifier: GPL-2.0
"""bqlma - the helper the .cocci files of audit/ import in their scripts.

audit/audit.py runs spatch with BQLMA_SETS naming a JSON file of the sets a
rule needs for the driver at hand (the functions that reach a reset, a
completion, a drain, ... computed from the facts pass over the driver's
files). Run by hand, without BQLMA_SETS, every set is empty and the rules
that depend on them match nothing: the rules are meant to be run by
"make audit".
"""
import json
import os
import re

_SETS = {}
if os.environ.get("BQLMA_SETS"):
    with open(os.environ["BQLMA_SETS"]) as f:
        _SETS = {k: set(v) if isinstance(v, list) else v
                 for k, v in json.load(f).items()}


# Words that name a doorbell: the register written, or the helper that
# writes it (tail pointer, producer index, kick, notify, ...).
DB_WORDS = re.compile(
    r"door|kick|notify|(^|[^a-z])db([^a-z]|$)|tail|tdt|prod|pidx|wptr|"
    r"wr_ptr|write_ptr|tx_?start|start_?tx|tx_?poll|poll_?demand|"
    r"trigger|tx_?index|tx_?idx|_wp\b|txq_?wr|tx_?push|push_bd|flush|"
    r"issue_pending|"
    r"submit|xmit_?req|tdbar|tx_?head|txhead|tx_?cmd|cpu_?idx|ctx_?ptr|"
    r"ctx_?idx|cidx", re.I)


def S(name):
    """The set called @name (empty when not given)."""
    return _SETS.get(name, set())


def emit(**kw):
    """One record for audit.py: a line "BQLMA {json}" on stdout."""
    print("BQLMA " + json.dumps(kw), flush=True)


def pos(p):
    """(function, line, column) of a Coccinelle position."""
    return p[0].current_element, int(p[0].line), int(p[0].column)


def site(p):
    """"file:line:col" of a position, as audit.py names doorbell sites."""
    return "%s:%s:%s" % (os.path.basename(p[0].file), p[0].line,
                         p[0].column)
