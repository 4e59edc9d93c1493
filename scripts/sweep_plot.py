#!/usr/bin/python3
"""Plot a column of a sweep summary (mbsolve --sweep ... -o DIR: DIR/summary.csv) to a PNG.

    /usr/bin/python3 scripts/sweep_plot.py SUMMARY.csv --x VAR --y COLUMN [--group VAR] [-o OUT.png]

--x is a table variable (the horizontal axis), --y a report column (or steps, wall_s), --group
another table variable: one curve per value. Rows whose status is not ok are left out and
counted in the title. Example (docs/sweeps.md 3):
    /usr/bin/python3 scripts/sweep_plot.py sweep-out/summary.csv --x L --y energy_left --group C \\
        -o sweep-energy.png
Debian's /usr/bin/python3 with python3-matplotlib.
"""
import argparse
import csv
import sys

import matplotlib

matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('summary')
    ap.add_argument('--x', required=True, help='table variable on the horizontal axis')
    ap.add_argument('--y', required=True, help='summary column on the vertical axis')
    ap.add_argument('--group', help='table variable: one curve per value')
    ap.add_argument('-o', '--output', default='sweep.png')
    ap.add_argument('--title')
    a = ap.parse_args()

    with open(a.summary, newline='') as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f'{a.summary}: no rows')
    for col in [a.x, a.y] + ([a.group] if a.group else []):
        if col not in rows[0]:
            sys.exit(f'{a.summary}: no column {col!r} (columns: {", ".join(rows[0])})')
    ok = [r for r in rows if r['status'] == 'ok' and r[a.y] != '']
    groups = {}
    for r in ok:
        groups.setdefault(r[a.group] if a.group else '', []).append((float(r[a.x]), float(r[a.y])))

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for g in sorted(groups, key=lambda v: float(v) if v else 0.0):
        pts = sorted(groups[g])
        ax.plot([p[0] for p in pts], [p[1] for p in pts], 'o-', ms=3,
                label=f'{a.group} = {g}' if a.group else None)
    ax.set_xlabel(a.x)
    ax.set_ylabel(a.y)
    skipped = len(rows) - len(ok)
    ax.set_title((a.title or a.summary) + (f' ({skipped} cases not ok)' if skipped else ''))
    ax.grid(True, alpha=0.3)
    if a.group:
        ax.legend()
    fig.tight_layout()
    fig.savefig(a.output, dpi=120)
    print(f'{a.output}: {len(ok)} cases')


if __name__ == '__main__':
    main()
