"""Simple pendulum released horizontally (IFToMM A01).

Reference: docs/references.md section 1 (exact solution with Jacobi elliptic
functions; period T = 2.3678419475762374 s). Deck: input-examples/pendulum.mbd.
Tolerances: positions 1e-5 at dt = 1e-4 (the issue's target); the method is second order,
so the dt = 1e-3 error must be about 100x the dt = 1e-4 one; energy error < 5e-5 J over 10 s
(Exudyn's IFToMM target); period within 1e-6 relative at dt = 1e-4. Reaction: the hinge
force along the link equals m (g cos(theta) + L thetadot^2) (closed form), to 1e-6 of the
largest tension (3 m g), and has no component across the link (1e-6 N).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
deck = os.path.join(EXAMPLES, 'pendulum.mbd')
G, L, M = 9.81, 1.0, 1.0
T_EXACT = 2.3678419475762374
REF = {1: (-0.986291751131875, -0.165010853125541), 2: (0.793566195343322, -0.608483930443792),
       5: (0.942305435043757, -0.334754338414001), 10: (0.275087462576117, -0.961419205099125)}

errs = {}
for dt in (1e-3, 1e-4):
    r = Run(exe, deck, work, f'pendulum_{dt:g}', {'DT': dt})
    mov = r.rows('mov', 2)
    t = r.times()
    e = 0.0
    for tt, (x, y) in REF.items():
        i = int(np.argmin(abs(t - tt)))
        if dt == 1e-4:
            close(f'x(t={tt}) dt={dt:g}', mov[i, 1], x, 1e-5)
            close(f'y(t={tt}) dt={dt:g}', mov[i, 2], y, 1e-5)
        e = max(e, abs(mov[i, 1] - x), abs(mov[i, 2] - y))
    errs[dt] = e
    if dt == 1e-4:
        # energy (zero at release): 1/2 m v^2 + m g y
        E = 0.5 * M * (mov[:, 7] ** 2 + mov[:, 8] ** 2) + M * G * mov[:, 2]
        close('max energy error [J] over 10 s', np.abs(E).max(), 0.0, 5e-5)
        # period: the mass crosses the bottom (x = 0) moving right once per period; the crossing
        # time is interpolated with x(t) ~ x_k + vx_k (t - t_k) (Newton step from the nearest sample)
        x, vx = mov[:, 1], mov[:, 7]
        ups = [k for k in range(1, len(x)) if x[k - 1] < 0 <= x[k]]
        tz = [t[k] - x[k] / vx[k] for k in ups]
        periods = np.diff(tz)
        close('period [s] (mean of turning-point intervals)', periods.mean(), T_EXACT, 1e-6, relative=True)
        # hinge reaction along the link: jnt global force columns 7-9 of joint 2
        jnt = r.rows('jnt', 2)
        x, y = mov[:, 1], mov[:, 2]
        theta_dot = mov[:, 12]
        cos_th = -y / L
        tension = M * (G * cos_th + L * theta_dot ** 2)
        # the reported force is the one on the mass (MBDyn's PlaneHingeJoint: node 2), which
        # points from the mass to the pivot
        along = -(jnt[:, 7] * x + jnt[:, 8] * y) / L
        close('max |hinge force along link - m(g cos th + L thd^2)| / max tension',
              np.abs(along - tension).max() / tension.max(), 0.0, 1e-6)
        perp = np.abs(jnt[:, 7] * y - jnt[:, 8] * x).max() / L
        close('max |hinge force across link| [N]', perp, 0.0, 1e-6)

ratio = errs[1e-3] / errs[1e-4]
print(f'position error dt=1e-3: {errs[1e-3]:.3g}, dt=1e-4: {errs[1e-4]:.3g}, ratio {ratio:.1f}')
close('convergence order (log10 of error ratio for a 10x step change)', np.log10(ratio), 2.0, 0.15)
finish()
