"""Modal analysis about a spinning (dynamic) equilibrium (input-examples/reduced_governor_modal.mbd,
`mbsolve --analysis modal` with `spin: joint, 1, W;`): the reduced equations linearized in (q, qd)
about the steady conical motion of a governor arm on a free shaft.

  Hand derivation (the deck's header; Routh reduction of the cyclic shaft angle):
    cos th0 = G / (W^2 L),  I(th) = JS + JC + M L^2 sin^2 th,
    w^2 = (M W^2 L^2 sin^2 th0 + W^2 (M L^2 sin 2 th0)^2 / I(th0)) / (JC + M L^2);
  eigenvalues: 0, 0 (|lambda| <= 1e-12 rad/s) and +-i w (imaginary parts opposite to 1e-12 w),
  w within 5e-10 relative, real parts <= 1e-12 w (undamped) (measured: zeros, the pair and the
  real parts exactly 0; w off by 3.5e-11, 1.1e-10, 7.7e-11);
    governor (defaults JS = 0.05, JC = 0.01, W = 6) and W = 8;
    spherical pendulum (JS = JC = 0, W = 7): w^2 = W^2 (1 + 3 cos^2 th0), 5e-10 relative;
    the spin card in a `problem: modal;` deck's own block: the same w (1e-12 relative, measured 0);
    without the spin card (no options block): the hanging arm, w^2 = M G L / (JC + M L^2), 5e-11
    (measured 8.3e-12).
  DAE time run of the same deck (independent: absolute coordinates, multipliers, the two-step
  integrator), the arm started at th0 + 1e-3 with the shaft rate W I(th0) / I(th0 + 1e-3) (the
  steady motion's angular momentum), 8 s at dt = 1e-3: frequency of a least-squares sinusoid
  fitted to the arm's angle from the vertical (from the .mov orientation matrix) within 2e-5
  relative of the modal w (measured -3.9e-6 at dt 1e-3, -6.8e-7 at 5e-4: the integrator's
  second-order period error); its amplitude (max - min) 2e-3 rad within 1% (measured 0.19%).
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, close, finish  # noqa: E402
from reduced_util import mbsolve, read_modal, variant  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
deck = os.path.join(EXAMPLES, 'reduced_governor_modal.mbd')
P = dict(M=2.0, L=0.5, JC=0.01, JS=0.05, W=6.0, G=9.81)


def modal(path, prefix, defines=None):
    out = os.path.join(work, prefix)
    mbsolve(exe, ['--quiet', '--analysis', 'modal', '-f', path, '-o', out], defines)
    rows, _, _ = read_modal(out + '.modal')
    return rows[:, 1] + 1j * rows[:, 2]


def spin_w(p):
    th = math.acos(p['G'] / (p['W'] ** 2 * p['L']))
    inertia = p['JS'] + p['JC'] + p['M'] * p['L'] ** 2 * math.sin(th) ** 2
    w2 = (p['M'] * p['W'] ** 2 * p['L'] ** 2 * math.sin(th) ** 2
          + p['W'] ** 2 * (p['M'] * p['L'] ** 2 * math.sin(2 * th)) ** 2 / inertia) / (p['JC'] + p['M'] * p['L'] ** 2)
    return th, math.sqrt(w2), inertia


def check_modes(what, lam, w):
    lam = sorted(lam, key=abs)
    close(f'{what}: two zero eigenvalues [rad/s]', max(abs(lam[0]), abs(lam[1])), 0.0, 1e-12)  # observed 0
    close(f'{what}: +-i w pair', abs(lam[2].imag + lam[3].imag), 0.0, 1e-12 * w)  # observed 0
    close(f'{what}: w [rad/s]', abs(lam[3].imag), w, 5e-10, relative=True)  # observed <= 1.1e-10
    close(f'{what}: undamped (|real part| / w)', max(abs(lam[2].real), abs(lam[3].real)) / w, 0.0,
          1e-12)  # observed 0
    return abs(lam[3].imag)


th0, w0, i0 = spin_w(P)
wm = check_modes('governor W = 6', modal(deck, 'gov'), w0)
check_modes('governor W = 8', modal(deck, 'gov8', {'W': 8.0}), spin_w(dict(P, W=8.0))[1])
ps = dict(P, JS=0.0, JC=0.0, W=7.0)
ths = math.acos(ps['G'] / (ps['W'] ** 2 * ps['L']))
ws = check_modes('spherical pendulum W = 7', modal(deck, 'sph', {'JS': 0.0, 'JC': 0.0, 'W': 7.0}),
                 ps['W'] * math.sqrt(1 + 3 * math.cos(ths) ** 2))
close('spherical pendulum: the governor formula agrees with W^2 (1 + 3 cos^2 th0)', spin_w(ps)[1], ws, 5e-10,
      relative=True)  # observed 7.7e-11

text = open(deck).read()
block = text[text.index('\nbegin: equilibrium;'):text.index('\nend: equilibrium;') + len('\nend: equilibrium;')]
m = variant(deck, work, 'modal_problem.mbd', 'problem: initial value;', 'problem: modal;')
m = variant(m, work, 'modal_problem.mbd', block, '')
m = variant(m, work, 'modal_problem.mbd', 'begin: initial value;', 'begin: modal;')
m = variant(m, work, 'modal_problem.mbd', '    max iterations: 20;\nend: initial value;',
            '    max iterations: 20;\n    spin: joint, 1, W;\nend: modal;')
lam = sorted(modal(m, 'modal_problem'), key=abs)
close('problem: modal deck, spin in its block: w', abs(lam[3].imag), wm, 1e-12, relative=True)

lam = sorted(modal(variant(deck, work, 'nospin.mbd', block, ''), 'nospin'), key=abs)
close('no spin card: hanging arm w [rad/s]', abs(lam[-1].imag),
      math.sqrt(P['M'] * P['G'] * P['L'] / (P['JC'] + P['M'] * P['L'] ** 2)), 5e-11, relative=True)  # 8.3e-12

# DAE time run about the same steady motion
d, dt = 1e-3, 1e-3
inertia = P['JS'] + P['JC'] + P['M'] * P['L'] ** 2 * math.sin(th0 + d) ** 2
dae = variant(deck, work, 'dae.mbd', '    gravity;\nend: control data;',
              '    gravity;\n    default orientation: orientation matrix;\n    output precision: 16;\nend: control data;')
out = os.path.join(work, 'dae')
mbsolve(exe, ['--quiet', '-f', dae, '-o', out],
        {'TH0': repr(th0 + d), 'W': repr(i0 * P['W'] / inertia), 'TF': 8.0, 'DT': dt})
rows = [line.split() for line in open(out + '.mov') if line.split()[0] == '2']
th = np.array([math.acos(min(1.0, float(w[8]))) for w in rows])  # R(2,2): cos of the arm's angle
t = np.arange(len(th)) * dt
close('DAE: output steps', len(th), 8001, 0)


def misfit(w):
    a = np.c_[np.ones_like(t), np.cos(w * t), np.sin(w * t)]
    c = np.linalg.lstsq(a, th, rcond=None)[0]
    return np.sum((a @ c - th) ** 2)


lo, hi, g = 0.9 * wm, 1.1 * wm, (math.sqrt(5) - 1) / 2
for _ in range(80):
    c, e = hi - g * (hi - lo), lo + g * (hi - lo)
    if misfit(c) < misfit(e):
        hi = e
    else:
        lo = c
close('DAE: measured oscillation frequency vs modal w [rad/s]', (lo + hi) / 2, wm, 2e-5, relative=True)
close('DAE: oscillation amplitude about th0 (max - min) [rad]', th.max() - th.min(), 2 * d, 1e-2,
      relative=True)  # observed 1.9e-3
finish()
