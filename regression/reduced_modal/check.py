"""Modal analysis and static equilibrium on the relative-coordinate model (mbsolve --analysis
modal / equilibrium), against closed forms.

  Simple pendulum (input-examples/reduced_pendulum.mbd, JC = 0, started 0.3 rad away from the
  equilibrium, which Newton finds first): eigenvalues +-i sqrt(g/L): frequency within 1e-8
  relative (measured 1.4e-11), real part 0 within 1e-9, equilibrium angle -0.3 rad (.eq file)
  within 1e-12.
  Physical pendulum with a rotational damper (JC = 0.1, C = 0.5): w_n = sqrt(m g d / J_O),
  J_O = JC + m d^2, damping ratio C / (2 w_n J_O): natural frequency, damped frequency
  w_n sqrt(1 - zeta^2) and damping percent within 1e-8 relative (1.4e-11).
  Double pendulum (input-examples/reduced_double_pendulum.mbd): w^2 the roots of
  det(K - w^2 M) = 0, M = [[(m1+m2) l1^2, m2 l1 l2], [m2 l1 l2, m2 l2^2]],
  K = diag((m1+m2) g l1, m2 g l2), equal links and masses (w^2 = (2 -+ sqrt 2) g/L) and an
  unequal case started away from the equilibrium: within 1e-8 relative (<= 7e-11); the first
  mode shape's amplitude ratio q2/q1 = the eigenvector of the closed form, within 1e-7.
  Parallelogram four-bar with a torsional spring (input-examples/reduced_spring_four_bar.mbd,
  1 DOF, two dependent coordinates through an in-line cut): equilibrium angle and frequency
  against the hand derivation in the deck, two spring/rest-angle cases, within 1e-9 relative
  (measured 1e-11 and 5e-12).
  Spherical pendulum (input-examples/reduced_spherical_pendulum.mbd, started 0.2 rad off):
  equilibrium back under the pivot (1e-12), the spin about the vertical reported as the only
  non-sensitive coordinate, a zero eigenvalue pair (|lambda| < 1e-6; measured 0) and two swing
  pairs at sqrt(M G L / (M L^2 + J)) within 1e-8 relative (1.2e-11).
  The deck card `problem: modal;` (block `begin: modal;`) gives the same eigenvalues as the
  command-line --analysis modal.
"""
import math
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, close, failures, finish  # noqa: E402
from reduced_util import mbsolve, read_modal  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]


def run(deck, prefix, analysis, defines):
    out = os.path.join(work, prefix)
    mbsolve(exe, ['--quiet', '--analysis', analysis, '-f', os.path.join(EXAMPLES, deck), '-o', out], defines)
    return out


def modal(deck, prefix, defines):
    """Eigenvalue rows (index real imag f damping fd) and mode shapes {mode: [(modulus, phase)]}."""
    out = run(deck, prefix, 'modal', defines)
    rows, shapes, _ = read_modal(out + '.modal')
    return rows, shapes


g = 9.81
# Simple pendulum
ev, _ = modal('reduced_pendulum.mbd', 'pendulum', {'TH0': 0.3})
f_ref = math.sqrt(g / 1.0) / (2 * math.pi)
close('pendulum: 2 eigenvalues', len(ev), 2, 0)
for r in ev:
    close('pendulum frequency [Hz]', r[3], f_ref, 6e-11, relative=True)  # observed 1.4e-11
    close('pendulum real part', r[1], 0.0, 1e-9)
out = run('reduced_pendulum.mbd', 'pendulum_eq', 'equilibrium', {'TH0': 0.3})
q = [float(line.split()[3]) for line in open(out + '.eq') if line.startswith('q1 ')][0]
close('pendulum equilibrium angle from the deck start [rad]', q, -0.3, 1e-12)

# Physical pendulum with a damper
m, d, jc, c = 1.0, 1.0, 0.1, 0.5
jo = jc + m * d * d
wn = math.sqrt(m * g * d / jo)
zeta = c / (2 * wn * jo)
ev, _ = modal('reduced_pendulum.mbd', 'damped', {'JC': jc, 'C': c})
for r in ev:
    close('damped pendulum natural frequency [Hz]', r[3], wn / (2 * math.pi), 6e-11, relative=True)  # observed 1.4e-11
    close('damped pendulum damping [%]', r[4], 100 * zeta, 6e-11, relative=True)  # observed 1.4e-11
    close('damped pendulum damped frequency [Hz]', r[5], wn * math.sqrt(1 - zeta ** 2) / (2 * math.pi), 6e-11,
          relative=True)  # observed 1.5e-11

# Double pendulum
for case, (m1, m2, l1, l2, th1, th2) in {'equal': (1.0, 1.0, 1.0, 1.0, 0.0, 0.0),
                                           'unequal': (2.0, 0.5, 1.2, 0.7, 0.2, -0.4)}.items():
    M = np.array([[(m1 + m2) * l1 ** 2, m2 * l1 * l2], [m2 * l1 * l2, m2 * l2 ** 2]])
    K = np.diag([(m1 + m2) * g * l1, m2 * g * l2])
    w2, vec = np.linalg.eig(np.linalg.solve(M, K))
    order = np.argsort(w2)
    w2, vec = w2[order], vec[:, order]
    ev, shapes = modal('reduced_double_pendulum.mbd', f'double_{case}',
                       {'M1': m1, 'M2': m2, 'L1': l1, 'L2': l2, 'TH1': th1, 'TH2': th2})
    close(f'double pendulum ({case}): 4 eigenvalues', len(ev), 4, 0)
    for k in range(2):
        for r in ev[2 * k:2 * k + 2]:
            close(f'double pendulum ({case}) mode {k + 1} frequency [Hz]', r[3], math.sqrt(w2[k]) / (2 * math.pi),
                  3e-10, relative=True)  # observed 6.0e-11
    # Mode 1 (lowest): absolute angles theta1 = q1, theta2 = q1 + q2 -> q2/q1 = v2/v1 - 1.
    (a1, p1), (a2, p2) = shapes[1]
    ratio = a2 / a1 * math.cos(math.radians(p2 - p1))
    close(f'double pendulum ({case}) mode 1 shape q2/q1', ratio, vec[1, 0] / vec[0, 0] - 1.0, 4e-10)  # observed 9.4e-11
# Parallelogram four-bar with a torsional spring (input-examples/reduced_spring_four_bar.mbd):
# hand derivation in the deck, K (TH - TH0) + (MC + MB) G A cos TH = 0 solved here by Newton,
# w^2 = (K - (MC + MB) G A sin TH*) / (2 MC A^2/3 + MB A^2).
for case, (k, th0) in {'default': (20.0, 60.0), 'stiff': (80.0, 20.0)}.items():
    A, MC, MB = 0.4, 1.0, 2.0
    th0 = math.radians(th0)
    th = th0
    for _ in range(50):
        th -= (k * (th - th0) + (MC + MB) * g * A * math.cos(th)) / (k - (MC + MB) * g * A * math.sin(th))
    w = math.sqrt((k - (MC + MB) * g * A * math.sin(th)) / (2 * MC * A * A / 3 + MB * A * A))
    out = run('reduced_spring_four_bar.mbd', f'spring_four_bar_{case}', 'equilibrium', {'K': k, 'TH0': f'{th0!r}'})
    q1 = [float(line.split()[3]) for line in open(out + '.eq') if line.startswith('q1 ')][0]
    close(f'spring four-bar ({case}): equilibrium crank angle [rad]', th0 + q1, th, 5e-11, relative=True)  # observed 9.8e-12
    ev, _ = modal('reduced_spring_four_bar.mbd', f'spring_four_bar_{case}', {'K': k, 'TH0': f'{th0!r}'})
    for r in ev:
        close(f'spring four-bar ({case}): frequency [Hz]', r[3], w / (2 * math.pi), 8e-11, relative=True)  # observed 1.6e-11
# Spherical pendulum (input-examples/reduced_spherical_pendulum.mbd): at the equilibrium the
# spin about the vertical (q3) is the only non-sensitive coordinate; modes: a zero pair (that
# spin) and two pendulum pairs at w^2 = M G L / (M L^2 + J).
out = run('reduced_spherical_pendulum.mbd', 'spherical_eq', 'equilibrium', {})
eq = {line.split()[0]: line.split() for line in open(out + '.eq') if line.startswith('q')}
flagged = sorted(k for k, w in eq.items() if w[-1] == 'non-sensitive')
print(f"{'ok  ' if flagged == ['q3'] else 'FAIL'} spherical pendulum: non-sensitive coordinates {flagged} (expected ['q3'])")
if flagged != ['q3']:
    failures.append('non-sensitive coordinates')
close('spherical pendulum: equilibrium q1 (back under the pivot) [rad]', float(eq['q1'][3]), -0.2, 1e-12)
ev, _ = modal('reduced_spherical_pendulum.mbd', 'spherical', {})
close('spherical pendulum: 6 eigenvalues', len(ev), 6, 0)
for r in ev[:2]:
    close('spherical pendulum: zero mode |lambda|', math.hypot(r[1], r[2]), 0.0, 1e-6)
for r in ev[2:]:
    close('spherical pendulum: swing frequency [Hz]', r[3], math.sqrt(g * 1.0 / 1.01) / (2 * math.pi), 6e-11,
          relative=True)  # observed 1.2e-11

# The deck card: `problem: modal;` with a `begin: modal; ... end: modal;` block runs the same
# analysis from a plain `mbsolve -f DECK` (the eigenvalue lines identical to --analysis modal).
src = open(os.path.join(EXAMPLES, 'reduced_spring_four_bar.mbd')).read()
card = src.replace('problem: initial value;', 'problem: modal;').replace('begin: initial value;', 'begin: modal;') \
          .replace('end: initial value;', 'end: modal;')
deck = os.path.join(work, 'spring_four_bar_card.mbd')
with open(deck, 'w') as f:
    f.write(card)
p = subprocess.run([exe, '--quiet', '-f', deck, '-o', os.path.join(work, 'card')], capture_output=True, text=True)
close("'problem: modal;' deck: exit status", p.returncode, 0, 0)
ref = run('reduced_spring_four_bar.mbd', 'card_ref', 'modal', {})
lines = [open(x + '.modal').read().splitlines()[6:8] for x in (os.path.join(work, 'card'), ref)]
print(lines[0])
close("'problem: modal;' deck: eigenvalue lines as with --analysis modal", float(lines[0] == lines[1]), 1.0, 0)

# A mechanism with no free coordinate (static_kinematic.mbd: every joint driven) has no modes: exit
# 2 with a message naming the reason (it was a segmentation fault in Eigen's eigensolver).
p = subprocess.run([exe, '--quiet', '--analysis', 'modal', '-f', os.path.join(EXAMPLES, 'static_kinematic.mbd'),
                    '-o', os.path.join(work, 'no_dof')], capture_output=True, text=True, timeout=60)
print(p.stderr.strip())
close('no free coordinate: exit status', p.returncode, 2, 0)
close('no free coordinate: message', float('error: modal analysis: the model has no free degree of freedom' in p.stderr
                                             and 'hint:' in p.stderr), 1.0, 0)
finish()
