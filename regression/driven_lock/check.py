"""`driven` elements (input-examples/driven_lock.mbd): a rotor spinning freely at 10 rad/s on
a revolute pin (I = 0.6 kg m^2 about the pin, no gravity) is stopped at T_LOCK = 1 s by a
driven `angular velocity` joint (w . z = 0) whose drive steps from 0 to 1 there.

References (closed form / momentum balance):
  before the lock: angular velocity 10 (5e-12, observed 1.3e-12), the locking joint's couple
    exactly 0 (inactive:
    zero multiplier), angle 10 t from the .mov Euler angle (1e-4: the rotation update of the
    integrator is exact to O((w dt)^3) per step, 5e-8 rad at w dt = 0.01, 5e-5 over 1000 steps)
  after the lock (from the first step at or after 1 s): angular velocity 0 (4e-13, observed
    8.5e-14), the angle
    constant (1e-12 over the last 0.9 s) and within one step's travel (10 dt) of 10 T_LOCK
  the stop's impulse, sum of the couple x dt, equals minus the angular momentum removed,
    I OM0 = 6 N m s (1e-15 relative, observed 1.5e-16; MBDyn's AngularVelocityJoint reports
    minus the couple on the node, docs/reactions.md); after 0.1 s the couple is back to 0
    (1e-13 N m, observed 3.4e-17: the round-off of a multiplier that was 6e3 N m at the lock
    step, so not tightened further)
The `existing:` form (the joint defined as its own card, then 'driven: 3, ..., existing:
joint, 3') gives the same numbers (bit for bit). Bad input: a card inside another card
(not driven), a driven label different from the element's, a hint the angular velocity joint
does not take, and driving an undefined element exit 2 with file:line:col.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
deck = os.path.join(EXAMPLES, 'driven_lock.mbd')
text = open(deck).read()
r = Run(exe, deck, work, 'lock')
t = r.times()
mov, jnt = r.rows('mov', 2), r.rows('jnt', 3)
dt = t[1] - t[0]
k = int(np.argmax(t >= 1.0 - 1e-12))
w = mov[:, 12]
ang = np.unwrap(np.radians(mov[:, 6]))
close('lock step time (first step at or after 1 s)', t[k], 1.0, 1e-9)
close('before: max |w - 10|', np.abs(w[:k] - 10).max(), 0.0, 5e-12)  # observed 1.3e-12
close('before: max |locking couple|', np.abs(jnt[:k, 10:13]).max(), 0.0, 0)
close('before: max |angle - 10 t|', np.abs(ang[:k] - 10 * t[:k]).max(), 0.0, 1e-4)
close('after: max |w|', np.abs(w[k:]).max(), 0.0, 4e-13)  # observed 8.5e-14
tail = t >= 1.1
close('after: angle constant over the last 0.9 s', np.ptp(ang[tail]), 0.0, 1e-12)
close('after: |angle - 10 T_LOCK| within one step of travel', float(abs(ang[-1] - 10.0) <= 10 * dt),
      1.0, 0)
close('impulse of the locking couple [N m s]', jnt[:, 12].sum() * dt, 6.0, 1e-15,
      relative=True)  # observed 1.5e-16
close('after 0.1 s: max |locking couple|', np.abs(jnt[tail, 10:13]).max(), 0.0,
      1e-13)  # observed 3.4e-17 (round-off, see above)

ex = text.replace('''    driven: 3, step, T_LOCK, 1., 0.,
        joint: 3, angular velocity, ROTOR, 0., 0., 1., const, 0.;''', '''    joint: 3, angular velocity, ROTOR, 0., 0., 1., const, 0.;
    driven: 3, step, T_LOCK, 1., 0., existing: joint, 3;''')
path = os.path.join(work, 'existing.mbd')
with open(path, 'w') as f:
    f.write(ex)
e = Run(exe, path, work, 'existing')
close('existing: form: same .mov', np.abs(e.rows('mov', 2) - mov).max(), 0.0, 0)
close('existing: form: same .jnt', np.abs(e.rows('jnt', 3) - jnt).max(), 0.0, 0)

cases = (
    ('card in a card', text.replace('body: 1, ROTOR, M,', 'body: 1, ROTOR: M,'),
     "unexpected ':' after 'ROTOR'"),
    ('label', text.replace('joint: 3, angular velocity', 'joint: 4, angular velocity'),
     'differs from the label 4'),
    ('hint', text.replace('step, T_LOCK, 1., 0.,\n', 'step, T_LOCK, 1., 0., hint, "offset{1}",\n'),
     'does not take the hint "offset{1}"'),
    ('undefined', ex.replace('existing: joint, 3;', 'existing: joint, 7;'), 'joint 7 is not defined'),
)
for name, bad, msg in cases:
    p = os.path.join(work, f'bad_{name.replace(" ", "_")}.mbd')
    with open(p, 'w') as f:
        f.write(bad)
    b = Run(exe, p, work, f'bad_{name.replace(" ", "_")}', expect_rc=2)
    ok = msg in b.stderr and os.path.basename(p) + ':' in b.stderr
    if not ok:
        print(b.stderr)
    close(f'bad input ({name}): exit 2, file:line:col, "{msg}"', float(ok), 1.0, 0)
finish()
