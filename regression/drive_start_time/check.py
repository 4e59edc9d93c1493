"""Drives starting at the run's initial time, and string drives of Time
(input-examples/drive_start_time.mbd).

References: closed form, no external data. The run starts at t0 = T0 = 0.5 s.
 - STARTER: d1(t) = (A sin(W s), B (1 - cos(W s)), S s), s = t - T0, the sine and cosine ending
   at s = pi/W (sine back at 0, cosine holding 2B); the three drives start at t0.
 - TIMER: d2(t) = (E sin(W2 t), K t^2, 0) written with string drives of Time (one of them the
   outer drive of `drive`, fed Var = K t).
Checks, for the DAE run and the relative-coordinate run (--analysis reduced-dynamics, RK4):
 - positions: X + d(t) at every step, 1e-9 m (DAE: position-level constraints met to the Newton
   tolerance 1e-9; reduced: the driven coordinates are set from the drives, round-off);
 - velocities at t0: d'(t0) = (A W, 0, S) and (E W2 cos(W2 T0), 2 K T0, 0). Before the fix the
   reduced run gave (A W / 2, 0, S / 2) (MBDyn's mean of the slopes at a kink) and 0.28 for
   TIMER's y (the outer string differentiated as if Var and Time moved together: (Time + Var) K);
   reduced: 1e-12 m/s (the drives' exact derivatives); DAE: 1e-9 m/s (the initial assembly's
   one-sided time difference of the drives, measured 5e-11);
 - reduced run, every step: velocities = d'(t) to 1e-12 m/s (the sine's end at s = pi/W is not
   on an output step).
Tolerances (issue 23): each close() below is within 2-10x of the error observed when it was
set (Release build), stated in the comment beside it (a floor of a few ulps or 1e-15 where
the observed error is 0 or far below round-off); where a figure above is larger, it is the
bound the physics or the solver tolerance allows, not the tolerance checked.
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
T0, A, B, W, S, E, W2, K = 0.5, 0.2, 0.1, 3.0, 0.25, 0.15, 3.0, 0.4
X2 = np.array([1.0, 0.0, 0.0])
DECK = os.path.join(EXAMPLES, 'drive_start_time.mbd')


def starter(t):
    s = t - T0
    on = s < np.pi / W
    x = np.where(on, A * np.sin(W * s), 0.0)
    y = np.where(on, B * (1 - np.cos(W * s)), 2 * B)
    xd = np.where(on, A * W * np.cos(W * s), 0.0)
    yd = np.where(on, B * W * np.sin(W * s), 0.0)
    return np.stack([x, y, S * s], axis=1), np.stack([xd, yd, S + 0 * s], axis=1)


def timer(t):
    z = 0 * t
    x = X2 + np.stack([E * np.sin(W2 * t), K * t ** 2, z], axis=1)
    v = np.stack([E * W2 * np.cos(W2 * t), 2 * K * t, z], axis=1)
    return x, v


def mov_times(rows):
    return T0 + 1e-3 * np.arange(len(rows))


dae = Run(exe, DECK, work, 'dae')
red_prefix = os.path.join(work, 'reduced')
p = subprocess.run([exe, '--quiet', '--analysis', 'reduced-dynamics', '-f', DECK, '-o', red_prefix],
                   capture_output=True, text=True)
if p.returncode != 0:
    sys.exit('reduced-dynamics run failed: ' + p.stdout + p.stderr)


def rows(prefix, label):
    out = []
    with open(prefix + '.mov') as f:
        for line in f:
            w = line.split()
            if w and int(w[0]) == label:
                out.append([float(v) for v in w])
    return np.array(out)


for name, prefix in (('DAE', dae.prefix), ('reduced', red_prefix)):
    m1, m2 = rows(prefix, 1), rows(prefix, 2)
    t = mov_times(m1)
    x1, v1 = starter(t)
    x2, v2 = timer(t)
    close(f'{name}: final time [s]', t[-1], 2.0, 1e-12)
    close(f'{name}: STARTER max |x - closed form| [m]', np.abs(m1[:, 1:4] - x1).max(), 0, 3e-14)  # observed 5.0e-15
    close(f'{name}: TIMER max |x - closed form| [m]', np.abs(m2[:, 1:4] - x2).max(), 0, 2e-13)  # observed 5.0e-14
    tol0 = 2e-15  # observed 1.1e-16 (STARTER), 3.1e-16 (TIMER), DAE and reduced alike
    close(f'{name}: STARTER |v(t0) - (A W, 0, S)| [m/s]', np.abs(m1[0, 7:10] - v1[0]).max(), 0, tol0)
    close(f'{name}: TIMER |v(t0) - d2\'(t0)| [m/s]', np.abs(m2[0, 7:10] - v2[0]).max(), 0, tol0)
    if name == 'reduced':
        close('reduced: STARTER max |v - d1\'(t)| [m/s]', np.abs(m1[:, 7:10] - v1).max(), 0, 2e-14)  # observed 5.1e-15
        close('reduced: TIMER max |v - d2\'(t)| [m/s]', np.abs(m2[:, 7:10] - v2).max(), 0, 2e-14)  # observed 5.1e-15
finish()
