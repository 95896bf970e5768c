# SPDX-License-Identifier: GPL-2.0
"""spcache.py - a cache of spatch runs for audit.py (--cache DIR).

make audit-selftest audits the 6.12 tree and then, for every re-created
bug, a copy of the driver with one file patched: every other file of the
driver is the same text, read with the same semantic patch and, most of
the time, the same sets. A run is keyed by what decides its output:

  the semantic patch's text, the text of the file spatch reads (the
  sanitized copy), its path relative to the kernel tree, the text of the
  sets file (BQLMA_SETS), and the spatch command line but the paths;

and its records and status are kept in DIR/<key>.json. Only runs that
ended "ok" are kept: a timeout or an error is run again. The records
name the file spatch read (a path under audit.py's temporary copy);
audit.py matches them by their end, the path relative to the tree, so
a record read from the cache names the same file.
"""

import hashlib
import json
import os
import tempfile


def _digest(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
        h.update(b"\0")
    return h.hexdigest()


def _read(path):
    if not path:
        return b""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return b""


def key(sp, path, rel, sets, argv):
    """The cache key of one spatch run."""
    return _digest(_read(sp), _read(path), rel, _read(sets), " ".join(argv))


def get(cache_dir, k):
    """(records, status, detail) kept for @k, or None."""
    try:
        with open(os.path.join(cache_dir, k + ".json")) as f:
            d = json.load(f)
        return d["recs"], d["status"], d["detail"]
    except (OSError, ValueError, KeyError):
        return None


def put(cache_dir, k, recs, status, detail):
    """Keep the result of a run that ended "ok"."""
    if status != "ok":
        return
    os.makedirs(cache_dir, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=cache_dir, suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        json.dump({"recs": recs, "status": status, "detail": detail}, f)
    os.replace(tmp, os.path.join(cache_dir, k + ".json"))
