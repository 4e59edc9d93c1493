"""Viewer page of a large run (docs/viewer.md, issue 27): size and load time.

Writes a synthetic mbsolve HDF5 result of --nodes structural nodes (default 1000) over --steps
output steps (default 10000), in the schema of docs/hdf5-schema.md (/time, /nodes X R XP Omega,
/connectivity: a clamp, beam3 elements along the chain, a body on every node): a chain along x
swinging and bending in the x-y plane. Then runs scripts/mbsolve-view on it and opens the page in
headless Chromium (viewer/test/browse.mjs), and prints the page size, the generator's time and
the load time: from the navigation's start to the first frame drawn with the data decoded, by the
page's own clock (window.__mbsView.timing.ready), and the time the test driver saw (page.goto
to __mbsView.ready, which with software rendering also waits for the frames drawn meanwhile).
Fails (exit 1) when the page is 50 MB or more or the page's load time is 5 s or more (the issue's
bounds), or a JavaScript error is logged.

  /usr/bin/python3 benchmarks/viewer_bench.py [--nodes N] [--steps T] [--work DIR]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write_result(path, n, steps):
    t = np.linspace(0.0, 10.0, steps + 1)
    s = np.arange(n) / max(n - 1, 1)                 # arc length 0..1
    with h5py.File(path, 'w', libver='latest') as f:
        f.attrs.update({'schema': 'mbsolve-results', 'schema_version': 1, 'deck': 'synthetic chain',
                        'title': f'synthetic chain of {n} nodes, {steps + 1} output steps',
                        'run_status': 'completed'})
        f['time'] = t
        g = f.create_group('nodes')
        g['node'] = np.arange(1, n + 1)
        g['labels'] = np.arange(1, n + 1)
        g['names'] = np.array([f'structural node {k}' for k in range(1, n + 1)], dtype=h5py.string_dtype())
        g['types'] = np.array(['dynamic'] * n, dtype=h5py.string_dtype())
        g['component'] = np.array(['x', 'y', 'z'], dtype=h5py.string_dtype())
        X = g.create_dataset('X', (len(t), n, 3), 'f8')
        R = g.create_dataset('R', (len(t), n, 9), 'f8')
        XP = g.create_dataset('XP', (len(t), n, 3), 'f8')
        W = g.create_dataset('Omega', (len(t), n, 3), 'f8')
        for a in range(0, len(t), 500):
            tt = t[a:a + 500, None]
            th = 0.4 * np.sin(2 * np.pi * 0.5 * tt) * s[None, :] ** 2 + 0.1 * np.sin(2 * np.pi * (tt - 2 * s[None, :]))
            # positions: integrate the direction angle along the chain
            ds = 1.0 / max(n - 1, 1)
            x = np.concatenate([np.zeros((len(tt), 1)), np.cumsum(np.cos(th[:, :-1]) * ds, axis=1)], axis=1)
            y = np.concatenate([np.zeros((len(tt), 1)), np.cumsum(np.sin(th[:, :-1]) * ds, axis=1)], axis=1)
            X[a:a + 500] = np.stack([x, y, np.zeros_like(x)], axis=2)
            c, sn = np.cos(th), np.sin(th)
            z, o = np.zeros_like(c), np.ones_like(c)
            R[a:a + 500] = np.stack([c, -sn, z, sn, c, z, z, z, o], axis=2)
            XP[a:a + 500] = 0.0
            W[a:a + 500] = 0.0
        c = f.create_group('connectivity')
        cat, typ, lab, refs = ['joint'], ['clamp'], [1], [[0]]
        for k in range(0, n - 2, 2):
            cat.append('beam3'), typ.append('beam3'), lab.append(k // 2 + 1), refs.append([k, k + 1, k + 2])
        for k in range(n):
            cat.append('body'), typ.append('body'), lab.append(k + 1), refs.append([k])
        c['element'] = np.array(lab)
        c['category'] = np.array(cat, dtype=h5py.string_dtype())
        c['types'] = np.array(typ, dtype=h5py.string_dtype())
        c['names'] = np.array([f'{a} {b}' for a, b in zip(cat, lab)], dtype=h5py.string_dtype())
        c['ref_count'] = np.array([len(r) for r in refs])
        c['first_ref'] = np.concatenate([[0], np.cumsum(c['ref_count'][:])[:-1]])
        flat = [i for r in refs for i in r]
        c['node'] = np.array(flat) + 1
        c['node_index'] = np.array(flat)
        c['offset'] = np.zeros((len(flat), 3))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--nodes', type=int, default=1000)
    ap.add_argument('--steps', type=int, default=10000)
    ap.add_argument('--work')
    ap.add_argument('--reuse', action='store_true', help='keep WORK/chain.h5 if it is there')
    a = ap.parse_args()
    # In memory where there is /dev/shm: the result is 1.3 GB (written at disk speed, minutes).
    work = a.work or tempfile.mkdtemp(prefix='mbs-viewer-bench-', dir='/dev/shm' if os.path.isdir('/dev/shm') else None)
    os.makedirs(work, exist_ok=True)
    h5, page = os.path.join(work, 'chain.h5'), os.path.join(work, 'chain.html')
    t0 = time.perf_counter()
    if not (a.reuse and os.path.isfile(h5)):
        write_result(h5, a.nodes, a.steps)
    print(f'result: {os.path.getsize(h5) / 1e6:.0f} MB ({a.nodes} nodes, {a.steps + 1} steps), '
          f'{time.perf_counter() - t0:.1f} s to write')
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, os.path.join(ROOT, 'scripts', 'mbsolve-view'), h5, '-o', page],
                       capture_output=True, text=True)
    if p.returncode:
        sys.exit(p.stderr)
    gen = time.perf_counter() - t0
    size = os.path.getsize(page) / 1e6
    print(f'page: {size:.1f} MB, {gen:.1f} s to generate; {p.stderr.strip()}')
    if shutil.which('node') is None or not os.path.exists(os.environ.get('MBS_CHROMIUM', '/usr/bin/chromium')):
        print('Chromium or Node.js missing: load time not measured')
        sys.exit(0 if size < 50 else 1)
    state = os.path.join(work, 'state.json')
    b = subprocess.run(['node', os.path.join(ROOT, 'viewer', 'test', 'browse.mjs'), page, state,
                        os.path.join(work, 'chain')], capture_output=True, text=True, timeout=600,
                       cwd=os.path.join(ROOT, 'viewer'))
    if b.returncode:
        sys.exit(b.stderr[-3000:])
    s = json.load(open(state))
    errors = [m for m in s['console'] if m.startswith('error')] + s['pageErrors']
    ready = s['timing']['ready'] / 1000
    print(f"load: {ready:.2f} s from the navigation's start to the first frame (the page's clock; "
          f"script start {s['timing']['script'] / 1000:.2f} s), {s['loadSeconds']:.2f} s seen by the driver "
          f"(Chromium's start {s['startSeconds']:.2f} s more), {s['nFrames']} frames, {len(errors)} JS errors")
    ok = size < 50 and ready < 5 and not errors
    print('OK' if ok else 'FAIL: the bounds are 50 MB, 5 s and no JS error')
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
