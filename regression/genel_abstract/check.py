"""Abstract nodes, scalar genels (clamp, spring support, mass), abstract forces, dof drives on
abstract nodes (input-examples/abstract_genels.mbd), and parameter nodes with `bind`
(input-examples/parameter_bind.mbd).

References (closed forms of the deck's scalar equations):
  node 1: x' = sin 2t, x(0) = 0             -> x = (1 - cos 2t) / 2, x' = sin 2t
  node 2: 2 x'' + 18 x = 0, x(0) = 0.1      -> x = 0.1 cos 3t (frequency sqrt(K/M) = 3)
  node 3: 4 x'' = 0.5                       -> x = t^2 / 16 (the two-step method integrates a
                                               constant acceleration exactly: 1e-11, x' 3e-12;
                                               measured 2.2e-12, 7.0e-13)
  node 4 (algebraic) = 2 x1 (dof drive)     -> 2e-11 (the Newton tolerance) against x1 (5.0e-12)
  nodes 5, 6: masses 1 and 3, spring 12 on x6 - x5 -> x6 - x5 = 0.2 cos 4t        1e-7
              (the method's phase error grows as amplitude x omega^3: 4.7 x node 2's)
              and momentum conservation: x5 + 3 x6 = 0.6                 6e-12 (1.4e-12)
  node 7 (algebraic, distance) = x1 + 0.5                                2e-13 (5.0e-14)
  node 8: x8'' = -9 x2 (cross spring support) -> x8 = 0.1 (cos 3t - 1)           2e-8
Tolerances at dt = 1e-4 over 5 s: 2e-8 (node 1; its x' 3e-14, measured 5.2e-15), 2e-8 (node 2);
the method is second order (dt 1e-3 / 1e-4 error ratio 10^(2 +- 2e-4), measured 2.00004 and
1.999994). Oscillator frequency from the upward zero crossings (linear interpolation) within
4e-8 relative of 3 rad/s (measured 8.9e-9).
parameter_bind.mbd: the couple driven by the bound parameter node equals, value for value,
the one of private_data_spring.mbd (element drive of the same datum), and -K 4 sin 2t to
2e-4 at dt 1e-3 (K x the 6.1e-5 rad angle error at that step) (the spring check of regression/drive_private_data).
Bad input: an `element` parameter node without bind, a bind to a valued parameter node, and a
spring support on an algebraic node exit 2 with file:line:col.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
deck = os.path.join(EXAMPLES, 'abstract_genels.mbd')
errs = {}
for dt in (1e-3, 1e-4):
    r = Run(exe, deck, work, f'abstract_{dt:g}', {'DT': dt})
    t = r.times()
    a = {k: r.rows('abs', k) for k in range(1, 9)}
    e1 = np.abs(a[1][:, 1] - (1 - np.cos(2 * t)) / 2).max()
    e2 = np.abs(a[2][:, 1] - 0.1 * np.cos(3 * t)).max()
    errs[dt] = (e1, e2)
    if dt == 1e-4:
        close('node 1: max |x - (1 - cos 2t)/2|', e1, 0.0, 2e-8)
        close('node 1: max |x\' - sin 2t|', np.abs(a[1][:, 2] - np.sin(2 * t)).max(), 0.0, 3e-14)
        close('node 2: max |x - 0.1 cos 3t|', e2, 0.0, 2e-8)
        x, v = a[2][:, 1], a[2][:, 2]
        ups = [k for k in range(1, len(x)) if x[k - 1] < 0 <= x[k]]
        tz = [t[k - 1] + (t[k] - t[k - 1]) * (-x[k - 1]) / (x[k] - x[k - 1]) for k in ups]
        close('node 2: frequency from zero crossings [rad/s]', 2 * np.pi / np.diff(tz).mean(), 3.0,
              4e-8, relative=True)
        close('node 3: max |x - t^2/16|', np.abs(a[3][:, 1] - t ** 2 / 16).max(), 0.0, 1e-11)
        close('node 3: max |x\' - t/8|', np.abs(a[3][:, 2] - t / 8).max(), 0.0, 3e-12)
        close('nodes 5, 6: max |(x6 - x5) - 0.2 cos 4t|',
              np.abs(a[6][:, 1] - a[5][:, 1] - 0.2 * np.cos(4 * t)).max(), 0.0, 1e-7)
        close('nodes 5, 6: max |x5 + 3 x6 - 0.6|', np.abs(a[5][:, 1] + 3 * a[6][:, 1] - 0.6).max(),
              0.0, 6e-12)
        close('node 7 (distance): max |x7 - x1 - 0.5|', np.abs(a[7][:, 1] - a[1][:, 1] - 0.5).max(),
              0.0, 2e-13)
        close('node 8 (cross spring support): max |x8 - 0.1 (cos 3t - 1)|',
              np.abs(a[8][:, 1] - 0.1 * (np.cos(3 * t) - 1)).max(), 0.0, 2e-8)
        close('node 4 (algebraic): max |x4 - 2 x1|', np.abs(a[4][:, 1] - 2 * a[1][:, 1]).max(), 0.0,
              2e-11)
for i, name in enumerate(('node 1', 'node 2')):
    ratio = errs[1e-3][i] / errs[1e-4][i]
    close(f'{name}: convergence order (log10 error ratio)', np.log10(ratio), 2.0, 2e-4)

# parameter node bound to the pin's rz vs the element drive of the same datum
rb = Run(exe, os.path.join(EXAMPLES, 'parameter_bind.mbd'), work, 'bind')
re = Run(exe, os.path.join(EXAMPLES, 'private_data_spring.mbd'), work, 'element')
mb, me = rb.rows('frc', 3)[:, 4], re.rows('frc', 3)[:, 4]
close('bound parameter node = element drive (max difference)', np.abs(mb - me).max(), 0.0, 0)
t = rb.times()
close('bound parameter node: max |M + K 4 sin 2t|', np.abs(mb + 2.4 * 4 * np.sin(2 * t)).max(), 0.0,
      2e-4)

text = open(os.path.join(EXAMPLES, 'parameter_bind.mbd')).read()
cases = (('unbound', text.replace('    bind: 1, joint, ANGLE, string, "rz";\n', ''),
          'no \'bind\' card binds it'),
         ('valued', text.replace('parameter: ANGLE, element;', 'parameter: ANGLE, value, 1.;'),
          'has a value of its own'),
         ('spring on algebraic', open(deck).read().replace(
             'genel: 2, spring support, 2, abstract', 'genel: 2, spring support, 4, abstract'),
          'needs a differential dof'))
for name, bad, msg in cases:
    path = os.path.join(work, f'bad_{name.replace(" ", "_")}.mbd')
    with open(path, 'w') as f:
        f.write(bad)
    b = Run(exe, path, work, f'bad_{name.replace(" ", "_")}', expect_rc=2)
    ok = msg in b.stderr and os.path.basename(path) + ':' in b.stderr
    if not ok:
        print(b.stderr)
    close(f'bad input ({name}): exit 2, file:line:col, "{msg}"', float(ok), 1.0, 0)
finish()
