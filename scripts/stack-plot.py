#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Plot the stack suites' probe latency distributions as one SVG.

Usage: scripts/stack-plot.py FIGURES SVG

FIGURES is build/kunit-stack-figures.txt, the suites' "bqlm_stack:" lines
without their prefix (scripts/kunit-stack.sh writes it); the lines used are

    cdf usbnet FUNC BUS VARIANT PROBE L0 L5 L10 ... L100
    cdf tun RING READER VARIANT PROBE L0 L5 L10 ... L100

with Ln the n-th percentile of the probe's one-way latency in nanoseconds.
One panel per experiment and setting (rows: usbnet ecm, usbnet ncm,
usbnet ncm-fix, tun ring25, tun ring500; columns: bus or reader, in the
order the file has them), the latency on a log axis with a labelled tick
per decade, the cumulative share of probes upward: each variant's band-0
probe solid, its same-band probe dashed. Debian's python3 alone, no
other package. Exit status 1 if FIGURES has no cdf line.
"""
import math
import sys

COLORS = {"no-bql": "#c0392b", "v1": "#e67e22", "fixed": "#2471a3",
          "stock": "#c0392b", "stop-2019": "#8e44ad", "backpressure": "#2471a3",
          "backpressure-room": "#16a085"}
PW, PH = 300, 210          # panel
ML, MR, MT, MB = 52, 14, 34, 40
LEG = 40


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def main(argv):
    if len(argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    cdfs = {}
    funcs, buses, variants = [], {}, []
    with open(argv[1]) as f:
        for line in f:
            w = line.split()
            if len(w) < 7 or w[0] != "cdf" or w[1] not in ("usbnet", "tun"):
                continue
            func, bus, var, probe = w[2:6]
            func = w[1] + " " + func
            # microseconds, at least 0.1 (a log axis)
            vals = [max(float(x) / 1000, 0.1) for x in w[6:]]
            if len(vals) != 21:
                continue
            # a setting's first run (later ones: ifdown, the drop case)
            cdfs.setdefault((func, bus, var, probe), vals)
            for lst, x in ((funcs, func), (variants, var),
                           (buses.setdefault(func, []), bus)):
                if x not in lst:
                    lst.append(x)
    if not cdfs:
        print("stack-plot.py: no 'cdf' line in %s" % argv[1],
              file=sys.stderr)
        return 1
    cols, rows = max(len(b) for b in buses.values()), len(funcs)
    W = cols * (PW + ML + MR) + 10
    H = rows * (PH + MT + MB) + LEG + 10
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="11">' % (W, H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="10" y="18" font-size="13">usbnet and tun on the real '
           'stack (UML, virtual time): one-way probe latency, solid = band 0, '
           'dashed = bulk band</text>']
    for r, func in enumerate(funcs):
        for c, bus in enumerate(buses[func]):
            x0 = 10 + c * (PW + ML + MR) + ML
            y0 = LEG + r * (PH + MT + MB) + MT
            keys = [k for k in cdfs if k[0] == func and k[1] == bus]
            if not keys:
                continue
            lo = min(min(cdfs[k]) for k in keys)
            hi = max(max(cdfs[k]) for k in keys)
            d0 = math.floor(math.log10(lo))
            d1 = max(math.ceil(math.log10(hi)), d0 + 1)

            def px(v):
                return x0 + PW * (math.log10(v) - d0) / (d1 - d0)

            def py(p):
                return y0 + PH - PH * p / 100.0
            out.append('<rect x="%d" y="%d" width="%d" height="%d" '
                       'fill="none" stroke="#888"/>' % (x0, y0, PW, PH))
            out.append('<text x="%d" y="%d">%s, %s</text>'
                       % (x0, y0 - 6, esc(func), esc(bus)))
            for d in range(d0, d1 + 1):
                x = px(10 ** d)
                out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" '
                           'stroke="#ddd"/>' % (x, y0, x, y0 + PH))
                lab = ("%g us" % 10 ** d) if d < 3 else ("%g ms" % 10 ** (d - 3))
                lab = lab.replace("us", "\u00b5s")
                out.append('<text x="%.1f" y="%d" text-anchor="middle">%s'
                           '</text>' % (x, y0 + PH + 14, lab))
            for p in (0, 50, 90, 100):
                out.append('<text x="%d" y="%.1f" text-anchor="end">%d%%'
                           '</text>' % (x0 - 4, py(p) + 4, p))
            out.append('<text x="%d" y="%d" text-anchor="middle">one-way '
                       'latency (log)</text>' % (x0 + PW / 2, y0 + PH + 30))
            for var in variants:
                for probe, dash in (("prio", ""), ("same", ' stroke-dasharray="4 3"')):
                    v = cdfs.get((func, bus, var, probe))
                    if not v:
                        continue
                    pts = []
                    for i, lat in enumerate(v):
                        pts.append("%.1f,%.1f" % (px(lat), py(5 * i)))
                    out.append('<polyline fill="none" stroke="%s" '
                               'stroke-width="1.6"%s points="%s"/>'
                               % (COLORS.get(var, "#555"), dash, " ".join(pts)))
    lx = 10
    for var in variants:
        out.append('<line x1="%d" y1="30" x2="%d" y2="30" stroke="%s" '
                   'stroke-width="2"/>' % (lx, lx + 20, COLORS.get(var, "#555")))
        out.append('<text x="%d" y="34">%s</text>' % (lx + 24, esc(var)))
        lx += 40 + 7 * len(var)
    out.append("</svg>")
    with open(argv[2], "w") as f:
        f.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
