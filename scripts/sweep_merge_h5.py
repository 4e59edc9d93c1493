#!/usr/bin/python3
"""Stack the HDF5 results of a sweep into one file with a case dimension.

    /usr/bin/python3 scripts/sweep_merge_h5.py DIR [-o DIR/cases.h5]

DIR is the output directory of `mbsolve --sweep` (after the sweep, or after `mbsolve
--sweep-merge DIR` for job arrays): DIR/summary.csv lists the cases, DIR/case-<row>.h5 holds
each case's results (docs/hdf5-schema.md). The merged file has
    /case/row            (C,)   table row of each case (only cases with status ok and an .h5 file)
    /case/<column>       (C,)   every numeric summary column: the table's variables, steps, wall_s,
                                the --report values
    /case/n_rows         (C,)   output steps of each case
    every per-step dataset of the cases (time, step, timestep, iterations, nodes/X, joints/F, ...)
                         (C, T, ...) with T the longest case; rows past a case's end are NaN
                         (integers: -1)
    the entity tables (nodes/labels, nodes/names, connectivity/node, ...) once, from the first
    case; every case must have the same entities (same deck), else the script stops. Constant
    real-valued datasets that differ between the cases (connectivity/offset: element geometry
    that depends on the case's parameters) are stacked (C, ...).
Debian's /usr/bin/python3 with python3-h5py.
"""
import argparse
import csv
import os
import sys

import h5py
import numpy as np


def datasets(f):
    out = {}
    f.visititems(lambda name, o: out.__setitem__(name, o) if isinstance(o, h5py.Dataset) else None)
    return out


def along_time(name, d, time):
    """Whether dataset d has a row per output step: /time, and the datasets whose first axis is
    its dimension scale (docs/hdf5-schema.md "Dimensions"); in files without dimension scales
    (before them), a first axis of the length of /time, apart from the entity lists."""
    if name == 'time':
        return True
    if h5py.h5ds.is_scale(time.id):
        return bool(d.shape) and len(d.dims[0]) > 0 and d.dims[0][0].name == '/time'
    return bool(d.shape) and d.shape[0] == time.shape[0] and \
        name.split('/')[-1] not in ('labels', 'names', 'types', 'orientation_description')


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument('dir')
    ap.add_argument('-o', '--output')
    a = ap.parse_args()
    out_path = a.output or os.path.join(a.dir, 'cases.h5')
    with open(os.path.join(a.dir, 'summary.csv'), newline='') as f:
        rows = [r for r in csv.DictReader(f) if r['status'] == 'ok']
    rows = [r for r in rows if os.path.exists(os.path.join(a.dir, f'case-{r["row"]}.h5'))]
    if not rows:
        sys.exit(f'{a.dir}: no completed case with an .h5 file')
    files = [h5py.File(os.path.join(a.dir, f'case-{r["row"]}.h5'), 'r') for r in rows]
    first = datasets(files[0])
    n_rows = np.array([f['time'].shape[0] for f in files])
    tmax = int(n_rows.max())
    per_step = {n for n, d in first.items() if along_time(n, d, files[0]['time'])}
    with h5py.File(out_path, 'w') as out:
        for k, v in files[0].attrs.items():
            out.attrs[k] = v
        out.attrs['cases'] = len(files)
        out['case/row'] = np.array([int(r['row']) for r in rows])
        out['case/n_rows'] = n_rows
        for col in rows[0]:
            if col in ('row', 'status', 'error'):
                continue
            try:
                out[f'case/{col}'] = np.array([float(r[col]) for r in rows])
            except ValueError:
                pass
        for name, d in first.items():
            if name in per_step:
                continue
            per_case = False
            for i, f in enumerate(files[1:], start=1):
                if name not in f or f[name].shape != d.shape or (d.dtype.kind in 'iu' and not np.array_equal(f[name][...], d[...])):
                    sys.exit(f'case-{rows[i]["row"]}.h5: {name} differs from case-{rows[0]["row"]}.h5 (not the same entities)')
                per_case = per_case or (d.dtype.kind == 'f' and not np.array_equal(f[name][...], d[...], equal_nan=True))
            out.create_dataset(name, data=np.stack([f[name][...] for f in files]) if per_case else d[...])
        for name in sorted(per_step):
            d = first[name]
            integer = d.dtype.kind in 'iu'
            m = np.full((len(files), tmax) + d.shape[1:], -1 if integer else np.nan, dtype=d.dtype)
            for i, f in enumerate(files):
                if f[name].shape[1:] != d.shape[1:]:
                    sys.exit(f'case-{rows[i]["row"]}.h5: {name} has shape {f[name].shape}, case-{rows[0]["row"]}.h5 {d.shape}')
                m[i, :f[name].shape[0]] = f[name][...]
            out.create_dataset(name, data=m)
    print(f'{out_path}: {len(files)} cases, up to {tmax} output steps each')


if __name__ == '__main__':
    main()
