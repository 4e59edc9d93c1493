#!/usr/bin/python3
"""Time mbsolve on the benchmark decks of ../shared/bench and compare with MBDyn's figures.

For each deck: the deck as shipped (text output) and a copy with `default output: none;` in
control data, each with the deck's linear solver (umfpack) and with klu (a sed'ed copy). Wall
time is the minimum over --runs runs of the whole process (parse + set-up + run, as MBDyn's
figures are); "loop" is the time mbsolve reports for the run itself. chain_100/500/1000 are
generated with gen_chain.py N 45 (the settings of the shipped chain decks).

  run_bench.py [--mbsolve PATH] [--bench DIR] [--runs 3] [--decks a,b] [--solvers umfpack,klu]
               [--outputs none,text] [--targets] [--keep]

--targets checks the goals of bench/README.md and exits 1 if one is missed: chain_200 with
`default output: none` under 2.5 s (each solver measured), and linear growth: time per step
per body within 1.5x from N = 100 to N = 1000 (output none, each solver).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_BENCH = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "bench"))
GENERATED = {"chain_100": 100, "chain_500": 500, "chain_1000": 1000}
ALL_DECKS = ["pendulum1", "pendulum2", "fourbar", "chain_10", "chain_50", "chain_100",
             "chain_200", "chain_500", "chain_1000"]
TARGET_WALL_S = 2.5          # chain_200, default output none
LINEAR_RANGE = (100, 1000)   # N range of the linear-growth check
LINEAR_MAX_RATIO = 1.5
STATS = re.compile(r"mbsolve: (\d+) steps, (\d+) rejected, (\d+) iterations, "
                   r"(\d+) factorizations, ([\d.eE+-]+) s")


def mbdyn_figures(readme):
    """{deck: {"text": s, "none": s[, "none_klu": s]}}: minima from the bench/README.md table."""
    out = {}
    if not os.path.exists(readme):
        return out
    row = re.compile(r"^\|\s*([A-Za-z0-9_]+)[^|]*\|\s*(\d+)\s*\|\s*([\d.]+)\s*/[^|]*\|"
                     r"\s*([\d.]+)\s*/([^|]*)\|")
    for line in open(readme, encoding="utf-8"):
        m = row.match(line)
        if not m:
            continue
        fig = {"steps": int(m.group(2)), "text": float(m.group(3)), "none": float(m.group(4))}
        k = re.search(r"KLU:\s*([\d.]+)", m.group(5))
        if k:
            fig["none_klu"] = float(k.group(1))
        out[m.group(1)] = fig
    return out


def add_no_output(text):
    """Inserts `default output: none;` as the first statement of control data."""
    new, n = re.subn(r"(begin:\s*control\s+data\s*;)", r"\1\n    default output: none;", text,
                     count=1, flags=re.IGNORECASE)
    if n != 1:
        raise ValueError("no 'begin: control data;' in the deck")
    return new


def set_solver(text, solver):
    new, n = re.subn(r"(linear\s+solver\s*:\s*)[A-Za-z]+", r"\g<1>" + solver, text,
                     flags=re.IGNORECASE)
    if n == 0:  # no card: add one to the initial value block
        new = re.sub(r"(begin:\s*initial\s+value\s*;)",
                     r"\1\n    linear solver: " + solver + ";", text, count=1, flags=re.IGNORECASE)
    return new


def deck_source(name, bench, work):
    """Path of the original deck (generating the chain_N decks that are not shipped)."""
    path = os.path.join(bench, name + ".mbd")
    if os.path.exists(path):
        return path
    if name not in GENERATED:
        raise FileNotFoundError(path)
    path = os.path.join(work, name + ".mbd")
    if not os.path.exists(path):
        gen = [sys.executable, os.path.join(bench, "gen_chain.py"), str(GENERATED[name]), "45"]
        text = subprocess.run(gen, check=True, capture_output=True, text=True).stdout
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return path


def deck_summary(mbsolve, deck):
    """(bodies, unknowns) from `mbsolve --check`."""
    p = subprocess.run([mbsolve, "--check", "-s", deck], capture_output=True, text=True)
    bodies = re.search(r"^\s*body:\s*(\d+)", p.stdout, re.M)
    unknowns = re.search(r"^unknowns:\s*(\d+)", p.stdout, re.M)
    return (int(bodies.group(1)) if bodies else 0, int(unknowns.group(1)) if unknowns else 0)


def run_once(mbsolve, deck, prefix):
    """One run: wall time, mbsolve's statistics and the bytes written (output removed)."""
    t0 = time.perf_counter()
    p = subprocess.run([mbsolve, deck, "-o", prefix], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    out_bytes = 0
    d, base = os.path.split(prefix)
    for f in os.listdir(d):
        if f.startswith(base + "."):
            out_bytes += os.path.getsize(os.path.join(d, f))
            os.remove(os.path.join(d, f))
    if p.returncode != 0:
        msg = (p.stderr.strip() or p.stdout.strip()).splitlines()
        return {"error": f"exit {p.returncode}: " + (msg[0] if msg else "")}
    m = STATS.search(p.stdout)
    if not m:
        return {"error": "no statistics line in the output"}
    return {"wall": wall, "steps": int(m.group(1)), "rejected": int(m.group(2)),
            "iters": int(m.group(3)), "loop": float(m.group(5)), "bytes": out_bytes}


def measure(mbsolve, deck, prefix, runs):
    """Minimum wall time (and, separately, minimum loop time) over `runs` runs."""
    best = None
    for _ in range(runs):
        r = run_once(mbsolve, deck, prefix)
        if "error" in r:
            return r
        if best is None:
            best = r
            continue
        loop = min(best["loop"], r["loop"])
        if r["wall"] < best["wall"]:
            best = r
        best["loop"] = loop
    return best


def print_table(rows, skipped):
    hdr = (f"{'deck':<11} {'output':<6} {'solver':<8} {'bodies':>6} {'unkn':>6} {'steps':>6} "
           f"{'it/step':>7} {'wall s':>8} {'loop s':>8} {'ms/step':>8} {'us/st/body':>10} "
           f"{'us/it/body':>10} {'out MB':>7} {'MBDyn s':>8} {'MBDyn/us':>8}")
    print("\n" + hdr + "\n" + "-" * len(hdr))
    for r in rows:
        steps = max(r["steps"], 1)
        ms_step = 1e3 * r["loop"] / steps
        nan = float("nan")
        r["us_step_body"] = 1e3 * ms_step / r["bodies"] if r["bodies"] else nan
        per_iter = 1e6 * r["loop"] / max(r["iters"], 1) / r["bodies"] if r["bodies"] else nan
        mbdyn = f"{r['mbdyn']:8.2f}" if r["mbdyn"] else "       -"
        ratio = f"{r['mbdyn'] / r['wall']:7.1f}x" if r["mbdyn"] else "       -"
        print(f"{r['name']:<11} {r['output']:<6} {r['solver']:<8} {r['bodies']:>6} "
              f"{r['unknowns']:>6} {r['steps']:>6} {r['iters'] / steps:>7.3f} {r['wall']:>8.3f} "
              f"{r['loop']:>8.3f} {ms_step:>8.3f} {r['us_step_body']:>10.2f} {per_iter:>10.2f} "
              f"{r['bytes'] / 1e6:>7.1f} {mbdyn} {ratio}")
    print("\nwall: whole process, min of runs; loop: the run as mbsolve reports it (min);"
          " ms/step and\nthe per-body figures use loop. MBDyn s: bench/README.md, min (text ="
          " text + NetCDF;\nKLU figure for chain_200 only); MBDyn/us: its wall time over ours.")
    for tag, err in skipped:
        print(f"skipped: {tag}: {err}")


def check_targets(rows, solvers):
    ok = True
    print("\ntargets:")
    for solver in solvers:
        c200 = [r for r in rows if r["name"] == "chain_200" and r["output"] == "none"
                and r["solver"] == solver]
        if c200:
            good = c200[0]["wall"] < TARGET_WALL_S
            ok &= good
            print(f"  chain_200 output none {solver}: {c200[0]['wall']:.2f} s "
                  f"(target < {TARGET_WALL_S} s) {'ok' if good else 'MISSED'}")
        chain = [r for r in rows if r["output"] == "none" and r["solver"] == solver
                 and r["name"].startswith("chain_")
                 and LINEAR_RANGE[0] <= int(r["name"][6:]) <= LINEAR_RANGE[1]]
        if len(chain) >= 2:
            per_body = [r["us_step_body"] for r in chain]
            ratio = max(per_body) / min(per_body)
            good = ratio <= LINEAR_MAX_RATIO
            ok &= good
            detail = ", ".join(f"N={r['name'][6:]}: {r['us_step_body']:.1f}" for r in chain)
            print(f"  linear growth {solver} (us/step/body {detail}): max/min {ratio:.2f} "
                  f"(target <= {LINEAR_MAX_RATIO}) {'ok' if good else 'MISSED'}")
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mbsolve", default=os.path.join(HERE, "..", "build", "mbsolve", "mbsolve"))
    ap.add_argument("--bench", default=DEFAULT_BENCH)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--decks", default=",".join(ALL_DECKS))
    ap.add_argument("--solvers", default="umfpack,klu")
    ap.add_argument("--outputs", default="none,text")
    ap.add_argument("--targets", action="store_true",
                    help="check the README goals; exit 1 if one is missed")
    ap.add_argument("--keep", action="store_true", help="keep the generated decks")
    a = ap.parse_args()
    mbsolve = os.path.abspath(a.mbsolve)
    decks = [d for d in a.decks.split(",") if d]
    solvers = [s for s in a.solvers.split(",") if s]
    outputs = [o for o in a.outputs.split(",") if o]
    if a.targets:
        lo, hi = LINEAR_RANGE
        need = ["chain_200"] + [d for d in ALL_DECKS
                                if d.startswith("chain_") and lo <= int(d[6:]) <= hi]
        decks = sorted(set(decks) | set(need), key=ALL_DECKS.index)
        if "none" not in outputs:
            outputs.insert(0, "none")
    mbdyn = mbdyn_figures(os.path.join(a.bench, "README.md"))
    work = tempfile.mkdtemp(prefix="mbs_bench_")
    rows, skipped = [], []
    print(f"mbsolve: {mbsolve}\nbench decks: {a.bench}\nwork dir: {work}\n"
          f"wall: min of {a.runs} runs", flush=True)
    try:
        for name in decks:
            original = open(deck_source(name, a.bench, work), encoding="utf-8").read()
            for solver in solvers:
                for output in outputs:
                    text = set_solver(original, solver)
                    if output == "none":
                        text = add_no_output(text)
                    deck = os.path.join(work, f"{name}_{output}_{solver}.mbd")
                    with open(deck, "w", encoding="utf-8") as f:
                        f.write(text)
                    bodies, unknowns = deck_summary(mbsolve, deck)
                    r = measure(mbsolve, deck, os.path.join(work, "out"), a.runs)
                    tag = f"{name} {output} {solver}"
                    if "error" in r:
                        skipped.append((tag, r["error"]))
                        print(f"  {tag}: skipped ({r['error']})", flush=True)
                        continue
                    r.update(name=name, output=output, solver=solver, bodies=bodies,
                             unknowns=unknowns)
                    fig = mbdyn.get(name, {})
                    klu = output == "none" and solver == "klu" and "none_klu" in fig
                    r["mbdyn"] = fig.get("none_klu" if klu else output)
                    rows.append(r)
                    print(f"  {tag}: {r['wall']:.3f} s", flush=True)
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    print_table(rows, skipped)
    if a.targets and not check_targets(rows, solvers):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
