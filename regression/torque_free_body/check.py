"""Free asymmetric rigid body spinning about its intermediate axis (Dzhanibekov effect).

Deck: input-examples/torque_free_body.mbd: one dynamic node, one body, principal inertia
diag(1, 2, 3) kg m^2, no gravity, no forces; principal axes rotated by euler123(20, -35, 50) deg
from the global frame; initial angular velocity (0.02, 2, 0.02) rad/s in the principal frame;
20 s. Outputs: .mov with `default orientation: orientation matrix` (R row by row, columns 5-13;
v 14-16; w 17-19, global); .ine (momentum beta 2-4, angular momentum gamma about the node 5-7,
global).

References:
  - Conservation laws (exact, no external load): momentum beta, angular momentum about a fixed
    point H_O = gamma + x x beta (= gamma when the c.o.m. is at the node and the node is at rest),
    kinetic energy T = 1/2 (xdot . beta + w . gamma).
  - Body-frame angular velocity w_b = R^T w: closed-form solution of Euler's equations (Landau &
    Lifshitz, Mechanics, sec. 37; case M^2 > 2 E J2, J1 < J2 < J3):
        w_b = (A1 cn(u), A2 sn(u), A3 dn(u) | m),  u = u0 + s t,
        A1^2 = (2E J3 - M^2)/(J1 (J3 - J1)), A2^2 = (2E J3 - M^2)/(J2 (J3 - J2)),
        A3^2 = (M^2 - 2E J1)/(J3 (J3 - J1)), s^2 = (J3 - J2)(M^2 - 2E J1)/(J1 J2 J3),
        m = (J2 - J1)(2E J3 - M^2)/((J3 - J2)(M^2 - 2E J1)),
    with u0 = F(phi0 | m), phi0 = atan2(w2(0)/A2, w1(0)/A1) (incomplete elliptic integral via
    Carlson's RF), cn/sn/dn by the AGM (Abramowitz & Stegun 16.4). w2 changes sign at
    u = 2nK(m): t = 5.458456747123766 s and 15.234890296445695 s. Computed in this script;
    cross-checked once against RK4 on Euler's equations (h = 1e-3 and 5e-4: agreement 7e-12).

Runs and tolerances (observed values at the time of writing in brackets):
  A. rho = 1 (`ms, 1.`), dt = 1e-4, c.o.m. at the node:
     |H(t) - H(0)| / |H(0)| < 2e-15 [0: H is a linear invariant of the method, kept to
     round-off here]; |T(t) - T(0)| / T(0) < 1e-8 [1.7e-9; O(dt^2), largest during the flips,
     no secular drift]; gamma vs R J R^T w (the momentum definition) 5e-15 relative [1.3e-15];
     beta = 0 and x = (1, 2, 3) to 1e-15 [0]; |R^T R - I| < 2e-13 [4.7e-14]; w_b(0) to 2e-15
     [2.6e-16]; w2 (body frame) changes sign: two flips in 20 s, at the closed-form times within
     1e-7 s [9.1e-9, 2.2e-8]; max |w_b - closed form| < 2e-7 rad/s [5.1e-8].
  B. rho = 1, dt = 1e-3: T error O(dt^2): log10(max T error(1e-3) / max T error(1e-4)) =
     2 +- 1e-5 [1.7e-7 vs 1.7e-9: 2.0000031]; H to 2e-15 relative [0].
  C. rho = 1, dt = 1e-4, c.o.m. offset 0.2 (1, -0.5, 0.25) m from the node (node at rest at
     t = 0, so the c.o.m. drifts): beta constant to 1e-15 [0]; H_O to 5e-14 relative [1.6e-14];
     T to 1e-8 [1.3e-9]; c.o.m. x + R c moves on the straight line x_c(0) + t beta/m within
     1e-8 m [1.9e-9]; w_b against the closed form (the rotation about the c.o.m. is the same motion)
     within 1e-5 rad/s [1.3e-6], flip times within 5e-6 s [8.7e-9, 5.6e-7; second order: 5.6e-5
     at dt = 1e-3, so the larger error than in A is the method's, not a defect].
  D. rho = 0.6, dt = 1e-4 and 1e-3: energy drift printed only (the method may dissipate)
     [(T(20) - T0)/T0 = -5.5e-13 and -6.7e-10; max |T - T0|/T0 = 2.0e-9 and 2.0e-7];
     H still conserved to 2e-15 relative [2.2e-16] (a linear invariant for any rho).
Runtime: about 10 s.
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
deck = os.path.join(EXAMPLES, 'torque_free_body.mbd')
NODE, MASS = 1, 1.0
J1, J2, J3 = 1.0, 2.0, 3.0
W0 = (0.02, 2.0, 0.02)
X0 = np.array([1.0, 2.0, 3.0])
OFFSET_DIR = np.array([1.0, -0.5, 0.25])


# ---- closed-form reference (Euler's equations, torque-free) ----
def carlson_rf(x, y, z):
    """Carlson's R_F(x, y, z) by duplication (Carlson 1995), relative error ~1e-16."""
    for _ in range(100):
        lam = math.sqrt(x * y) + math.sqrt(y * z) + math.sqrt(z * x)
        x, y, z = (x + lam) / 4, (y + lam) / 4, (z + lam) / 4
        mu = (x + y + z) / 3
        if max(abs(x - mu), abs(y - mu), abs(z - mu)) / mu < 1e-6:
            break
    X, Y, Z = 1 - x / mu, 1 - y / mu, 1 - z / mu
    e2, e3 = X * Y - Z * Z, X * Y * Z
    return (1 - e2 / 10 + e3 / 14 + e2 * e2 / 24 - 3 * e2 * e3 / 44) / math.sqrt(mu)


def ellipj(u, m):
    """sn, cn, dn(u | m) by the arithmetic-geometric mean (Abramowitz & Stegun 16.4)."""
    a, c, b = [1.0], [math.sqrt(m)], math.sqrt(1 - m)
    while abs(c[-1]) > 1e-16 and len(a) < 40:
        a_n, c_n, b = (a[-1] + b) / 2, (a[-1] - b) / 2, math.sqrt(a[-1] * b)
        a.append(a_n)
        c.append(c_n)
    n = len(a) - 1
    phi = 2 ** n * a[n] * np.asarray(u, float)
    for k in range(n, 0, -1):
        phi = (phi + np.arcsin(c[k] / a[k] * np.sin(phi))) / 2
    sn = np.sin(phi)
    return sn, np.cos(phi), np.sqrt(1 - m * sn * sn)


E2 = J1 * W0[0] ** 2 + J2 * W0[1] ** 2 + J3 * W0[2] ** 2           # 2 E
M2 = (J1 * W0[0]) ** 2 + (J2 * W0[1]) ** 2 + (J3 * W0[2]) ** 2     # M^2
assert M2 > E2 * J2
m_ = (J2 - J1) * (E2 * J3 - M2) / ((J3 - J2) * (M2 - E2 * J1))
s_ = math.sqrt((J3 - J2) * (M2 - E2 * J1) / (J1 * J2 * J3))
A1 = math.sqrt((E2 * J3 - M2) / (J1 * (J3 - J1)))
A2 = math.sqrt((E2 * J3 - M2) / (J2 * (J3 - J2)))
A3 = math.sqrt((M2 - E2 * J1) / (J3 * (J3 - J1)))
phi0 = math.atan2(W0[1] / A2, W0[0] / A1)
U0 = math.sin(phi0) * carlson_rf(math.cos(phi0) ** 2, 1 - m_ * math.sin(phi0) ** 2, 1.0)
K = carlson_rf(0.0, 1 - m_, 1.0)
FLIPS = [(2 * n * K - U0) / s_ for n in (1, 2)]


def w_exact(t):
    sn, cn, dn = ellipj(U0 + s_ * np.asarray(t), m_)
    return np.stack([A1 * cn, A2 * sn, A3 * dn], axis=-1)


print(f'closed form: m = {m_:.15g}, K = {K:.15g}, flips of w2 at t = {FLIPS[0]:.12f}, {FLIPS[1]:.12f} s')


# ---- one run and its derived quantities ----
class Result:
    def __init__(self, prefix, defines):
        r = Run(exe, deck, work, prefix, defines)
        mov, ine = r.rows('mov', NODE), r.rows('ine', NODE)
        self.t = r.times()
        self.x, self.v, self.w = mov[:, 1:4], mov[:, 13:16], mov[:, 16:19]
        self.R = mov[:, 4:13].reshape(-1, 3, 3)
        self.beta, self.gamma = ine[:, 1:4], ine[:, 4:7]
        self.wb = np.einsum('kji,kj->ki', self.R, self.w)                  # R^T w
        self.HO = self.gamma + np.cross(self.x, self.beta)                  # about the origin
        self.T = 0.5 * (np.einsum('ki,ki->k', self.v, self.beta) + np.einsum('ki,ki->k', self.w, self.gamma))

    def rel_drift(self, q):
        return np.abs(q - q[0]).max() / np.linalg.norm(q[0])

    def energy_drift(self):
        d = (self.T - self.T[0]) / self.T[0]
        return np.abs(d).max(), d[-1]

    def flips(self):
        """Times where the body-frame w2 changes sign (linear interpolation between samples)."""
        w2, t = self.wb[:, 1], self.t
        k = np.nonzero(np.sign(w2[1:]) != np.sign(w2[:-1]))[0] + 1
        return t[k - 1] + (t[k] - t[k - 1]) * w2[k - 1] / (w2[k - 1] - w2[k])

    def check_flips(self, tag, tol, w_tol):
        tz = self.flips()
        close(f'{tag}: number of sign changes of body-frame w2 in 20 s', len(tz), 2, 0)
        for n, (a, b) in enumerate(zip(tz, FLIPS)):
            close(f'{tag}: flip {n + 1} time [s]', a, b, tol)
        close(f'{tag}: max |w_b - closed form| [rad/s]', np.abs(self.wb - w_exact(self.t)).max(), 0.0, w_tol)


# A. rho = 1, dt = 1e-4, c.o.m. at the node
a = Result('tfb_rho1_dt1e-4', {'RHO': 1.0, 'DT': 1e-4})
close('A: max |H - H0|/|H0|', a.rel_drift(a.gamma), 0.0, 2e-15)  # observed 0
eA = a.energy_drift()[0]
close('A: max |T - T0|/T0', eA, 0.0, 1e-8)
Jb = np.diag([J1, J2, J3])
Hc = np.einsum('kij,jl,kml,km->ki', a.R, Jb, a.R, a.w)                      # R J R^T w
close('A: max |gamma - R J R^T w| / |H0|', np.abs(Hc - a.gamma).max() / np.linalg.norm(a.gamma[0]), 0.0,
      5e-15)  # observed 1.3e-15
close('A: max |beta| [kg m/s]', np.abs(a.beta).max(), 0.0, 1e-15)  # observed 0
close('A: max |x - x0| [m]', np.abs(a.x - X0).max(), 0.0, 1e-15)  # observed 0
close('A: max |R^T R - I|', np.abs(np.einsum('kji,kjl->kil', a.R, a.R) - np.eye(3)).max(), 0.0,
      2e-13)  # observed 4.7e-14
close('A: body-frame w(0) = (0.02, 2, 0.02) [rad/s]', np.abs(a.wb[0] - W0).max(), 0.0, 2e-15)  # 2.6e-16
a.check_flips('A', 1e-7, 2e-7)  # observed 9.1e-9 and 2.2e-8 s, 5.1e-8 rad/s

# B. rho = 1, dt = 1e-3: energy error is O(dt^2)
b = Result('tfb_rho1_dt1e-3', {'RHO': 1.0, 'DT': 1e-3})
close('B: max |H - H0|/|H0|', b.rel_drift(b.gamma), 0.0, 2e-15)  # observed 0
eB = b.energy_drift()[0]
print(f'B: max |T - T0|/T0 = {eB:.3g} at dt = 1e-3 ({eA:.3g} at dt = 1e-4)')
close('B: order of the energy error (log10 of the ratio dt = 1e-3 / 1e-4)', math.log10(eB / eA), 2.0,
      1e-5)  # observed 2.0000031

# C. c.o.m. off the node
OFF = 0.2
c = Result('tfb_offset', {'RHO': 1.0, 'DT': 1e-4, 'OFFSET': OFF})
close('C: max |beta - beta0| [kg m/s]', np.abs(c.beta - c.beta[0]).max(), 0.0, 1e-15)  # observed 0
close('C: max |H_O - H_O(0)|/|H_O(0)|', c.rel_drift(c.HO), 0.0, 5e-14)  # observed 1.6e-14
close('C: max |T - T0|/T0', c.energy_drift()[0], 0.0, 1e-8)
xc = c.x + np.einsum('kij,j->ki', c.R, OFF * OFFSET_DIR)
line = xc[0] + np.outer(c.t, c.beta[0] / MASS)
close('C: max distance of the c.o.m. from its straight line [m]', np.abs(xc - line).max(), 0.0, 1e-8)  # 1.9e-9
c.check_flips('C', 5e-6, 1e-5)

# D. rho = 0.6: report the energy drift
for dt in (1e-4, 1e-3):
    d = Result(f'tfb_rho0.6_dt{dt:g}', {'RHO': 0.6, 'DT': dt})
    close(f'D: dt={dt:g} max |H - H0|/|H0|', d.rel_drift(d.gamma), 0.0, 2e-15)  # observed 2.2e-16
    emax, efin = d.energy_drift()
    print(f'D: rho = 0.6, dt = {dt:g}: energy (T(20) - T0)/T0 = {efin:.3g}, max |T - T0|/T0 = {emax:.3g}, '
          f'flips at {", ".join(f"{x:.6f}" for x in d.flips())} s')
finish()
