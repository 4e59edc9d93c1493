"""Equilibrium extras on the relative-coordinate model (problem: equilibrium): exchange variables,
an extra equation, dynamic equilibrium; against hand derivations (in the decks' headers).

  Pendulum with a torsional spring K and a horizontal force F at the centre of mass
  (input-examples/reduced_equilibrium.mbd): moments about the hinge F L cos th = M G L sin th
  + K th.
    plain equilibrium (the deck's card removed): th against bisection of that equation, 5e-13 rad
      (measured 1.05e-13);
    exchange th = TH -> force scale s = (M G L sin TH + K TH) / (F L cos TH), 5e-12 relative
      (measured 1.55e-12);
    exchange th = TH -> body mass M = (F L cos TH - K TH) / (G L sin TH), 5e-12 relative
      (measured 1.33e-12);
    exchange th = TH -> spring stiffness K = (F L cos TH - M G L sin TH) / TH, 1e-10 relative
      (measured 3.4e-11);
    extra equation x_cm = X (node 3 rigidly at the centre of mass by a locked total joint) ->
      force scale with th = asin(X / L): th within 1e-10 rad (measured 0), s within 2e-14
      relative (measured 3.0e-15).
  Conical pendulum / governor (input-examples/reduced_governor.mbd): arm angle with the shaft
  spinning at W: cos th = G / (W^2 L), 2e-15 rad (measured 4.4e-16); arm held at TH, the rate
  unknown: W = sqrt(G / (L cos TH)), 4e-15 relative (measured 8.8e-16).
  Bad input (exit 2, file:line:col naming the card): a joint without a coordinate in the tree
  (the locked total joint); an unknown parameter; a spin rate exchanged without `spin: ..., unknown`.
"""
import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, close, finish  # noqa: E402
import reduced_util  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]


def variant(src, name, old, new):
    return reduced_util.variant(src, work, name, old, new)


def run(deck, prefix, expect=0, defines=None):
    out = os.path.join(work, prefix)
    p = reduced_util.mbsolve(exe, ['--quiet', '-f', deck, '-o', out], defines, expect)
    if expect:
        return p.stderr
    coords, params = {}, {}
    for line in open(out + '.eq'):
        w = line.split()
        if not w or w[0].startswith('#'):
            continue
        if w[0] == 'parameter':
            params[' '.join(w[1:-1])] = float(w[-1])
        elif w[0] == 'spin':
            params['spin ' + w[1]] = float(w[2])
        else:
            coords[w[0]] = float(w[3])
    return coords, params


M, L, K, F, G, TH, X = 1.0, 0.8, 5.0, 4.0, 9.81, 0.3, 0.3
deck = os.path.join(EXAMPLES, 'reduced_equilibrium.mbd')
card = 'exchange: joint, 2, TH, force, 1, scale;'

# Plain equilibrium
c, _ = run(variant(deck, 'eq_plain.mbd', card, ''), 'eq_plain')
lo, hi = 0.0, 1.5
for _ in range(200):
    mid = 0.5 * (lo + hi)
    if F * L * math.cos(mid) - M * G * L * math.sin(mid) - K * mid > 0:
        lo = mid
    else:
        hi = mid
close('plain equilibrium angle [rad]', c['q1'], lo, 5e-13)  # observed 1.05e-13

# Exchanges
_, p = run(deck, 'eq_force')
close('exchange th -> force scale', p['force 1 scale'],
      (M * G * L * math.sin(TH) + K * TH) / (F * L * math.cos(TH)), 5e-12, relative=True)  # 1.55e-12
_, p = run(variant(deck, 'eq_mass.mbd', card, 'exchange: joint, 2, TH, body, 1, mass;'), 'eq_mass')
close('exchange th -> body mass [kg]', p['body 1 mass'],
      (F * L * math.cos(TH) - K * TH) / (G * L * math.sin(TH)), 5e-12, relative=True)  # 1.33e-12
_, p = run(variant(deck, 'eq_k.mbd', card, 'exchange: joint, 2, TH, joint, 3, stiffness;'), 'eq_k')
close('exchange th -> spring stiffness [N m/rad]', p['joint 3 stiffness'],
      (F * L * math.cos(TH) - M * G * L * math.sin(TH)) / TH, 1e-10, relative=True)  # 3.4e-11
c, p = run(variant(deck, 'eq_extra.mbd', card, 'extra: node, 3, position, 1, X, force, 1, scale;'),
           'eq_extra')
th = math.asin(X / L)
close('extra equation x_cm = X: angle [rad]', c['q1'], th, 1e-10)
close('extra equation x_cm = X: force scale', p['force 1 scale'],
      (M * G * L * math.sin(th) + K * th) / (F * L * math.cos(th)), 2e-14, relative=True)  # 3.0e-15

# Dynamic equilibrium
Mg, Lg, Wg, THg = 2.0, 0.5, 6.0, 0.7
gov = os.path.join(EXAMPLES, 'reduced_governor.mbd')
c, p = run(gov, 'gov_speed')
close('governor: arm angle at the given rate [rad]', c['q2'], math.acos(G / (Wg * Wg * Lg)), 2e-15)  # 4.4e-16
close('governor: reported rate [rad/s]', p['spin q1'], Wg, 0)
c, p = run(variant(gov, 'gov_angle.mbd', '    spin: joint, 1, W;\nend',
                   '    spin: joint, 1, unknown, 5.;\n    exchange: joint, 2, %g, spin;\nend' % THg), 'gov_angle')
close('governor: rate for the held angle [rad/s]', p['spin rate'], math.sqrt(G / (Lg * math.cos(THg))),
      4e-15, relative=True)  # observed 8.8e-16
close('governor: held angle [rad]', c['q2'], THg, 0)

# Bad input
for name, old, new, pattern in [
        ('bad_multi.mbd', card, 'exchange: joint, 4, 0., force, 1, scale;', r'has 0 coordinates|no coordinate'),
        ('bad_param.mbd', card, 'exchange: joint, 2, TH, body, 1, volume;', r"unknown parameter 'body, 1, volume'"),
        ('bad_spin.mbd', card, 'exchange: joint, 2, TH, spin;', r'the spin rate is not unknown')]:
    err = run(variant(deck, name, card, new), name, expect=2)
    ok = re.search(re.escape(name) + r':\d+:\d+: error: .*(' + pattern + ')', err) is not None
    close(f'bad input {name}: file:line:col error', 1 if ok else 0, 1, 0)
    if not ok:
        print(err)
finish()
