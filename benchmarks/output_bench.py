#!/usr/bin/python3
"""Cost of writing results: chain_200 (../shared/bench, KLU) with every step written as NetCDF
or HDF5, against the same run without result output.

Runs (wall time of the whole process, minimum over --runs interleaved runs):
  none    the deck with `default output: none;` (only the .out step log)
  text    the deck as shipped, --format text (.mov .jnt ..., MBDyn's text files)
  netcdf  --format netcdf (every node and joint, every step; .out and .log as always)
  hdf5    --format hdf5 (same, uncompressed: the default)
  hdf5-z1 --format hdf5 --compress 1 (deflate; reported, no target)
The overhead of a format is (t_format - t_none) / t_none, for the wall time and for the CPU time
(user + system, all threads; steadier on a loaded machine). Exits 1 if NetCDF or HDF5 (default
compression) costs 10% or more of the wall time (issue 5), unless --no-targets. The NetCDF and
HDF5 files are written by a writer thread: the wall time depends on a second core being free.

  output_bench.py --mbsolve PATH [--bench DIR] [--deck chain_200] [--runs 5] [--no-targets]
"""
import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run_bench import add_no_output, set_solver  # noqa: E402

TARGET = 0.10


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--mbsolve', required=True)
    ap.add_argument('--bench', default=os.path.normpath(os.path.join(HERE, '..', '..', 'shared', 'bench')))
    ap.add_argument('--deck', default='chain_200')
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--no-targets', action='store_true')
    a = ap.parse_args()

    work = tempfile.mkdtemp(prefix='mbs_output_bench_')
    try:
        text = set_solver(open(os.path.join(a.bench, a.deck + '.mbd')).read(), 'klu')
        deck = os.path.join(work, 'deck.mbd')
        deck_none = os.path.join(work, 'deck_none.mbd')
        open(deck, 'w').write(text)
        open(deck_none, 'w').write(add_no_output(text))
        cases = {
            'none': [deck_none, '--format', 'text'],
            'text': [deck, '--format', 'text'],
            'netcdf': [deck, '--format', 'netcdf'],
            'hdf5': [deck, '--format', 'hdf5'],
            'hdf5-z1': [deck, '--format', 'hdf5', '--compress', '1'],
        }
        best = {k: float('inf') for k in cases}
        best_cpu = {k: float('inf') for k in cases}
        sizes = {}
        for _ in range(a.runs):
            for name, args in cases.items():
                prefix = os.path.join(work, name)
                r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                t0 = time.perf_counter()
                p = subprocess.run([a.mbsolve, '--quiet', '-f', args[0], '-o', prefix, *args[1:]],
                                   capture_output=True, text=True)
                dt = time.perf_counter() - t0
                r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
                best_cpu[name] = min(best_cpu[name], cpu)
                if p.returncode != 0:
                    sys.exit(f'{name}: exit {p.returncode}\n{p.stderr}')
                best[name] = min(best[name], dt)
                sizes[name] = sum(os.path.getsize(os.path.join(work, f)) for f in os.listdir(work)
                                  if f.startswith(name + '.'))
                for f in os.listdir(work):  # keep the disk small between runs
                    if f.startswith(name + '.'):
                        os.remove(os.path.join(work, f))
        base, base_cpu = best['none'], best_cpu['none']
        print(f'{a.deck} (KLU), minimum of {a.runs} runs, every step written; load average '
              f'{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs')
        print(f"{'output':8} {'wall [s]':>9} {'overhead':>9} {'CPU [s]':>8} {'overhead':>9} {'files [MB]':>11}")
        failed = []
        for name in cases:
            over = (best[name] - base) / base
            over_cpu = (best_cpu[name] - base_cpu) / base_cpu
            print(f'{name:8} {best[name]:9.3f} {100 * over:8.1f}% {best_cpu[name]:8.3f} {100 * over_cpu:8.1f}% '
                  f'{sizes[name] / 1e6:11.1f}')
            if name in ('netcdf', 'hdf5') and over >= TARGET:
                failed.append(f'{name} costs {100 * over:.1f}% (target < {100 * TARGET:.0f}%)')
        if failed and not a.no_targets:
            sys.exit('; '.join(failed))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
