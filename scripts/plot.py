#!/usr/bin/python3
"""Plot node and element quantities of an mbsolve result (HDF5 or NetCDF) to a PNG.

    /usr/bin/python3 scripts/plot.py RESULT SPEC [SPEC ...] [-o OUT.png] [--title TEXT]

RESULT is PREFIX.h5 (docs/hdf5-schema.md) or PREFIX.nc (MBDyn's NetCDF layout; NetCDF-4 files
are read with h5py, classic ones with python3-netcdf4). Each SPEC is KIND:LABEL:QUANTITY[:COMPONENTS]
and gets its own panel against time:
    node:2:X        position of node 2 (x, y, z)          node:2:XP, node:2:Omega, node:2:R
    node:2:X:xy     only x and y (components by letter x y z or index 0 1 2 ...)
    joint:2:F       reaction force of joint 2, global     joint:2:f, :m (joint frame), :M
    force:10:F      force 10 (F, Arm; internal: F1 Arm1 F2 Arm2)   couple:12:M
In a NetCDF file the node orientation is the variable the deck asked for (E, Phi or R).
Example (README): plot.py input-examples/pendulum.h5 node:2:X:xy joint:2:F:xy -o pendulum.png
Debian's /usr/bin/python3 with python3-h5py and python3-matplotlib.
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

KINDS = {  # kind -> (HDF5 groups to search, NetCDF prefix)
    'node': (('nodes',), 'node.struct'),
    'joint': (('joints',), 'elem.joint'),
    'force': (('forces', 'internal_forces', 'total_forces'), 'elem.force'),
    'couple': (('couples', 'internal_couples'), 'elem.couple'),
}


class Result:
    """Time and (time, components) arrays from an mbsolve HDF5 file or an MBDyn-layout NetCDF file."""

    def __init__(self, path):
        self.path = path
        self.h5 = self.nc = None
        try:
            import h5py
            try:
                f = h5py.File(path, 'r')
            except OSError:
                # A run killed while writing (SWMR): readable in SWMR read mode.
                f = h5py.File(path, 'r', swmr=True)
            if 'schema' in f.attrs:
                self.h5 = f
            else:
                self.nc = f  # NetCDF-4 is HDF5: variables are datasets at the root
        except (OSError, ImportError):
            import netCDF4  # classic NetCDF
            self.nc = netCDF4.Dataset(path)

    def time(self):
        return np.asarray(self.h5['time'][:] if self.h5 is not None else self.nc['time'][:])

    def series(self, kind, label, quantity):
        if kind not in KINDS:
            raise KeyError(f"unknown kind '{kind}' (use {', '.join(KINDS)})")
        groups, prefix = KINDS[kind]
        if self.h5 is not None:
            for g in groups:
                if g in self.h5 and label in list(self.h5[g]['labels'][:]) and quantity in self.h5[g]:
                    k = list(self.h5[g]['labels'][:]).index(label)
                    d = self.h5[g][quantity]
                    return np.asarray(d[:, k, :]), d.attrs.get('units', '')
            raise KeyError(f'no {kind} {label} with quantity {quantity} in {self.path}')
        name = f'{prefix}.{label}.{quantity}'
        if name not in (self.nc.variables if hasattr(self.nc, 'variables') else self.nc):
            raise KeyError(f'no variable {name} in {self.path}')
        v = self.nc[name]
        data = np.asarray(v[:]).reshape(len(self.time()), -1)
        units = v.attrs.get('units', '') if hasattr(v, 'attrs') else getattr(v, 'units', '')
        return data, units


def components(text, n):
    if not text:
        return list(range(n))
    out = []
    for ch in text.replace(',', ''):
        out.append('xyz'.index(ch) if ch in 'xyz' else int(ch))
    if any(c >= n for c in out):
        raise ValueError(f"component out of range in '{text}' ({n} components)")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[1], usage=__doc__.split('\n\n')[1].strip())
    ap.add_argument('result')
    ap.add_argument('specs', nargs='+', metavar='SPEC')
    ap.add_argument('-o', '--output', help='PNG to write (default: RESULT with .png)')
    ap.add_argument('--title', help='figure title (default: the result file name)')
    a = ap.parse_args(argv)
    r = Result(a.result)
    t = r.time()
    fig, axes = plt.subplots(len(a.specs), 1, sharex=True, figsize=(8, 2.6 * len(a.specs)), squeeze=False)
    for ax, spec in zip(axes[:, 0], a.specs):
        parts = spec.split(':')
        if len(parts) not in (3, 4):
            sys.exit(f"plot.py: bad SPEC '{spec}' (KIND:LABEL:QUANTITY[:COMPONENTS])")
        kind, label, q = parts[0], int(parts[1]), parts[2]
        try:
            data, units = r.series(kind, label, q)
            cols = components(parts[3] if len(parts) == 4 else '', data.shape[1])
        except (KeyError, ValueError) as e:
            sys.exit(f'plot.py: {e.args[0]}')
        if isinstance(units, bytes):
            units = units.decode()
        names = 'xyz' if data.shape[1] == 3 else [str(i) for i in range(data.shape[1])]
        for c in cols:
            ax.plot(t, data[:, c], label=f'{q}_{names[c]}')
        ax.set_ylabel(f'{kind} {label} {q} [{units}]' if units else f'{kind} {label} {q}')
        ax.grid(True, alpha=0.3)
        ax.legend(loc='upper right', fontsize='small')
    axes[-1, 0].set_xlabel('time [s]')
    fig.suptitle(a.title or os.path.basename(a.result))
    fig.tight_layout()
    out = a.output or os.path.splitext(a.result)[0] + '.png'
    fig.savefig(out, dpi=100)
    print(out)


if __name__ == '__main__':
    main()
