"""Every scalar function type through `scalar function` drive callers
(input-examples/scalar_functions.mbd, t = 1 .. 3 s, dt = 0.05 s): each .frc component is the
function of time written in the deck, evaluated here with numpy (np.interp for the multilinear,
numpy.polynomial.chebyshev.chebval for the Chebyshev series, t^3 for the cubic spline through
five points of t^3, which the spline reproduces exactly). Tolerance 1e-12 (values up
to 256 printed with 16 digits: exp shows 3.7e-13, relative 1.4e-15).
"""
import os
import sys

import numpy as np
from numpy.polynomial import chebyshev

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
r = Run(exe, os.path.join(EXAMPLES, 'scalar_functions.mbd'), work, 'scalar_functions')
t = r.times()
close('output steps (t = 1 .. 3)', len(t), 41, 0)
p, lin = t**2.5, 3 * t - 1
ref = {
    (1, 0): ('const', 3.0 + 0 * t),
    (1, 1): ('exp', 0.5 * 2.0**(3 * t)),
    (1, 2): ('log', 3 * np.log10(2 * t)),
    (2, 0): ('pow', p),
    (2, 1): ('linear', lin),
    (2, 2): ('cubic spline', t**3),
    (3, 0): ('multilinear', np.interp(t, [1., 2., 3.], [0., 2., 1.])),
    (3, 1): ('chebychev', chebyshev.chebval(t - 2.0, [1., 0.5, 0.25])),
    (3, 2): ('sin', 2 * np.sin(3 * t + 0.1)),
    (4, 0): ('cos', 2 * np.cos(3 * t + 0.1)),
    (4, 1): ('sum', p + lin),
    (4, 2): ('sub', p - lin),
    (5, 0): ('mul', 3 * p),
    (5, 1): ('div', p / lin),
    (5, 2): ('exp, defined inline', 0.5 * 2.0**(3 * t)),
}
for (lab, c), (name, f) in ref.items():
    col = r.rows('frc', lab)[:, 2 + c]
    close(f'{name}: max |value - formula|', np.abs(col - f).max(), 0.0, 1e-12)
finish()
