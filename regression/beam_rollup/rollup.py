#!/usr/bin/python3
"""Roll-up of a cantilever under an end couple: deck writer and tip error per load step.

Usage: rollup.py <exe> <work dir> NE NSTEPS [mbdyn]
"""
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import beam_decks as bd  # noqa: E402


def deck(path, ne, nsteps, tol='1.e-10, 1.e-12', method='implicit euler'):
    nn = 2 * ne + 1
    o = ['set: const real L = 1.;', 'set: const real EI = 1.;', 'set: const real GJ = 1.;',
         'set: const real EA = 1.e6;', 'set: const real GA = 1.e6;',
         f'set: const real H = L/(2*{ne});', '',
         bd.solver(bd.PSEUDO_TIME, f'1./{nsteps}', tol, 50,
                   method=method), '',
         bd.control_data('model: static', f'structural nodes: {nn}', f'beams: {ne}',
                         'joints: 1', 'forces: 1', 'default orientation: orientation vector'),
         '', 'begin: nodes;']
    o += bd.cantilever_nodes(nn)
    o += ['end: nodes;', '', 'begin: elements;', '    joint: 1, clamp, 0, node, node;']
    for e in range(ne):
        o += bd.beam3_card(e, bd.law())
    o += [f'    couple: 2, absolute, {nn - 1}, single, 0., 0., 1., linear, 0., 2.*pi*EI/L;',
          'end: elements;']
    bd.write(path, o)


def tip_rows(mov, tip):
    """The .mov rows of node `tip` (label, position, rotation vector, ...)."""
    rows = []
    with open(mov) as f:
        for line in f:
            w = line.split()
            if w and int(w[0]) == tip:
                rows.append([float(v) for v in w])
    return rows


def angle_error(row, t):
    """|tip rotation about z - t| modulo 2 pi (the .mov's rotation vector is within pi)."""
    phi = math.hypot(*row[4:7]) * (1 if row[6] >= 0 else -1)
    return abs((phi - t + math.pi) % (2 * math.pi) - math.pi)


def tip_errors(rows, nsteps):
    """[(lambda, position error, rotation error)] for load steps 1 .. nsteps (rows[0]: start)."""
    out = []
    for i in range(1, nsteps + 1):
        r, lam = rows[i], i / nsteps
        t = 2 * math.pi * lam
        x, y = math.sin(t) / t, (1 - math.cos(t)) / t
        out.append((lam, math.hypot(r[1] - x, r[2] - y, r[3]), angle_error(r, t)))
    return out


def run_rows(exe, work, ne, nsteps, mbdyn=False):
    """Writes and runs the deck; the tip's .mov rows. MBDyn's residual cannot reach 1e-10 here
    (EA/H 1e-16 is 4e-9 N, and its Newton stalls above 1e-8 on some steps): 1e-6 (its 10-step runs take an 11th step, past t = 1)."""
    os.makedirs(work, exist_ok=True)
    name = os.path.join(work, f'rollup_{ne}_{nsteps}')
    deck(name + '.mbd', ne, nsteps, '1.e-6, 1.e-12' if mbdyn else '1.e-10, 1.e-12')
    cmd = [exe, '-f', name + '.mbd', '-o', name]
    if not mbdyn:
        cmd.insert(1, '--quiet')
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f'{cmd} failed: {p.stdout} {p.stderr}')
    rows = tip_rows(name + '.mov', 2 * ne)
    return rows


if __name__ == '__main__':
    exe, work, ne, k = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    for lam, e, r in tip_errors(run_rows(exe, work, ne, k, len(sys.argv) > 5), k):
        print(f'{lam:.3f} {e:.3e} {r:.3e}')
