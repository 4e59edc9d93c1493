"""Rotating cantilever (input-examples/beam_rotating.mbd, 10 beam3 elements, hub driven by an
axial rotation joint): centrifugal stiffening of the first flap mode (Southwell).

Reference, computed here independently of mbsolve: the linear flap equation of a uniform
rotating beam with no hub radius,
    EJ w'''' - (T w')' + MU w_tt = 0,   T(x) = MU OMEGA^2 (L^2 - x^2)/2,
solved by Galerkin with the first 6 clamped-free Euler-Bernoulli modes (stiffness
int EJ phi_i'' phi_j'' + T phi_i' phi_j', mass int MU phi_i phi_j, 80-point Gauss-Legendre
quadrature). Its limit at OMEGA -> 0 is Southwell's coefficient K = d(w^2)/d(OMEGA^2); the
published value for the uniform cantilever is K = 1.193 (e.g. Bramwell, Helicopter dynamics;
docs/references.md section 4 gives the non-rotating frequencies), checked below
to 1e-3 as a test of the reference itself (observed 2.8e-4: the published value has 4 digits;
and w_0 against (beta_1 L)^2 to 1e-11, observed 2.1e-12, the 12 digits of beta_1 L).

Fit: flap displacement z of the tip node (.mov, node 20; the flap motion is not affected by
the rotation about z), linear predictor of order 4 with stride 10 steps (two modes) and the
two-step method's root relation inverted (see regression/beam_vibration/check.py), so the
integrator's period error is removed.

Tolerances:
 - first flap frequency at OMEGA = 0, 2, 4 rad/s (0, 0.57, 1.14 times w_0) within 0.5% of the
   Galerkin reference (observed -0.17% ... -0.085%: 10 elements with lumped masses);
 - K_sim = (w(OMEGA)^2 - w(0)^2)/OMEGA^2 within 0.2% of the Galerkin (w_ref(OMEGA)^2 -
   w_ref(0)^2)/OMEGA^2 (observed 0.057%, 0.058%; 1.189 and 1.176, against Southwell's 1.193 at
   OMEGA -> 0).
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
DT, RHO = 2e-3, 0.6
EJ, MU, L = 1.0, 1.0, 1.0
SPEEDS = [0.0, 2.0, 4.0]


def beta_roots(n):
    """First n roots of 1 + cos(b) cosh(b) = 0 (clamped-free), by bisection."""
    out = []
    for k in range(n):
        a, b = (k + 0.5) * math.pi - 0.6, (k + 0.5) * math.pi + 0.6
        f = lambda x: 1 + math.cos(x) * math.cosh(x)
        for _ in range(200):
            c = 0.5 * (a + b)
            if (f(a) > 0) == (f(c) > 0):
                a = c
            else:
                b = c
        out.append(0.5 * (a + b))
    return out


def galerkin_w1(omega, nmodes=6, nq=80):
    xg, wg = np.polynomial.legendre.leggauss(nq)
    x = 0.5 * L * (xg + 1)
    wq = 0.5 * L * wg
    phis, d1s, d2s = [], [], []
    for bl in beta_roots(nmodes):
        b = bl / L
        s = (math.cosh(bl) + math.cos(bl)) / (math.sinh(bl) + math.sin(bl))
        # cosh - s sinh written without cancellation: ((1-s) e^{bx} + (1+s) e^{-bx}) / 2
        ep, em = np.exp(b * x - bl), np.exp(-b * x)
        ch_m_ssh = 0.5 * ((1 - s) * math.exp(bl) * ep + (1 + s) * em)
        sh_m_sch = 0.5 * ((1 - s) * math.exp(bl) * ep - (1 + s) * em)
        phis.append(ch_m_ssh - np.cos(b * x) + s * np.sin(b * x))
        d1s.append(b * (sh_m_sch + np.sin(b * x) + s * np.cos(b * x)))
        d2s.append(b * b * (ch_m_ssh + np.cos(b * x) - s * np.sin(b * x)))
    T = MU * omega**2 * (L**2 - x**2) / 2
    n = nmodes
    K = np.array([[np.sum(wq * (EJ * d2s[i] * d2s[j] + T * d1s[i] * d1s[j])) for j in range(n)]
                  for i in range(n)])
    M = np.array([[np.sum(wq * MU * phis[i] * phis[j]) for j in range(n)] for i in range(n)])
    ev = np.linalg.eigvals(np.linalg.solve(M, K))
    return math.sqrt(min(ev.real))


def method_lambda(z, h, rho):
    d = (1 + rho) * (3 - rho)
    a1, a2 = 4 * (1 - rho) / (3 - rho), (3 * rho - 1) / (3 - rho)
    b0, b1, b2 = 2 * h / d, 4 * rho * h / d, 2 * rho**2 * h / d
    return (z**2 - a1 * z - a2) / (b0 * z**2 + b1 * z + b2)


def first_mode(u, h, order=4, stride=10, t_start=0.5):
    k = np.arange(int(round(t_start / h)) + order * stride, len(u))
    A = np.column_stack([u[k - m * stride] for m in range(1, order + 1)])
    c, *_ = np.linalg.lstsq(A, u[k], rcond=None)
    zs = np.roots(np.concatenate([[1.0], -c]))
    lam = [method_lambda(np.exp(np.log(z) / stride), h, RHO) for z in zs if z.imag > 0]
    return min(abs(v) for v in lam)


w0_ref = galerkin_w1(0.0)
close('reference w_0 vs 1.87510406871^2', w0_ref, 1.87510406871**2, 1e-11,
      relative=True)  # observed 2.1e-12
k_south = (galerkin_w1(1e-2)**2 - w0_ref**2) / 1e-4
close('reference Southwell coefficient vs 1.193', k_south, 1.193, 1e-3, relative=True)

w_sim = {}
for om in SPEEDS:
    run = Run(exe, os.path.join(EXAMPLES, 'beam_rotating.mbd'), work, f'rotating_{om:g}',
              {'OMEGA': om})
    z = run.rows('mov', 20)[:, 3]
    w_sim[om] = first_mode(z, DT)
    close(f'first flap frequency at OMEGA = {om:g} rad/s', w_sim[om], galerkin_w1(om), 5e-3,
          relative=True)
for om in SPEEDS[1:]:
    k_sim = (w_sim[om]**2 - w_sim[0.0]**2) / om**2
    k_ref = (galerkin_w1(om)**2 - w0_ref**2) / om**2
    close(f'stiffening coefficient at OMEGA = {om:g} rad/s', k_sim, k_ref, 2e-3,
          relative=True)  # observed 5.7e-4, 5.8e-4
finish()
