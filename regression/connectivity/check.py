"""/connectivity of the HDF5 results (docs/hdf5-schema.md "Connectivity") against the decks.

1. input-examples/four_bar.mbd: the element list (labels, categories, types) is the deck's
   `begin: elements` block in order; each joint's node references and offsets are the deck's
   (B, D, C from the header's closed-form loop geometry, in the links' node frames); and the
   points X + R offset that a joint's two ends put together coincide at every output step
   (hinges B, D: the whole point; in-line C: the point stays on the line parallel to z, so x
   and y coincide). Observed: 4.2e-17 m at t = 0 against the closed form (round-off; tolerance
   4e-16 m), 5.6e-17 m for the offset lengths (tolerance 5e-16 m), and 3.0e-11 m between the two
   ends over the run (the Newton iterations stop at the deck's tolerance: the constraints are
   satisfied to that level, not to round-off; tolerance 3e-10 m).
2. input-examples/beam_offset_frames.mbd: every beam3 joins three nodes and every beam2 two,
   the ones its card lists (read from the deck text), offsets zero (`null`); clamps one node.
"""
import math
import os
import re
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]


def read(path):
    with h5py.File(path, 'r') as f:
        c = f['connectivity']
        out = {k: (c[k].asstr()[:] if c[k].dtype.kind == 'O' else c[k][:]) for k in c}
        out['X'] = f['nodes/X'][:]
        out['R'] = f['nodes/R'][:].reshape(len(f['time']), -1, 3, 3)
        out['labels'] = f['nodes/node'][:]
    return out


def refs(c, k):
    a = c['first_ref'][k]
    return range(a, a + c['ref_count'][k])


def point(c, r, step):
    i = c['node_index'][r]
    return c['X'][step, i] + c['R'][step, i] @ c['offset'][r]


# --- 1. four-bar
fb = Run(exe, os.path.join(EXAMPLES, 'four_bar.mbd'), work, 'four_bar', extra=('--format', 'hdf5'))
c = read(fb.prefix + '.h5')
close('four_bar: elements in deck order (labels)', 0 if list(c['element']) == [1, 2, 3, 4, 5, 1, 2, 3, 0] else 1, 0, 0)
close('four_bar: categories, types',
      0 if list(c['category']) == ['joint'] * 5 + ['body'] * 3 + ['gravity'] and
      list(c['types'][:5]) == ['clamp', 'axial rotation', 'revolute hinge', 'revolute hinge', 'in line'] else 1, 0, 0)
expect_nodes = [[1], [1, 2], [2, 3], [1, 4], [4, 3], [2], [3], [4], []]
got_nodes = [[int(c['node'][r]) for r in refs(c, k)] for k in range(len(c['element']))]
close('four_bar: node references of every element (card order)', 0 if got_nodes == expect_nodes else 1, 0, 0)
close('four_bar: node_index is the position along /nodes/node',
      0 if all(c['labels'][c['node_index'][r]] == c['node'][r] for r in range(len(c['node']))) else 1, 0, 0)
# Closed-form geometry at t = 0 (the deck's header).
LA, LB, LC, LD, PHI = 0.2, 0.6, 0.5, 0.6, math.radians(30.0)
xb, yb = LA * math.cos(PHI), LA * math.sin(PHI)
ebd, bet = math.hypot(LD - xb, yb), math.atan2(-yb, LD - xb)
alf = math.acos((LB ** 2 + ebd ** 2 - LC ** 2) / (2 * LB * ebd))
B = np.array([xb, yb, 0.0])
C = np.array([xb + LB * math.cos(bet + alf), yb + LB * math.sin(bet + alf), 0.0])
D = np.array([LD, 0.0, 0.0])
where = {2: [np.zeros(3), np.zeros(3)], 3: [B, B], 4: [D, D], 5: [C, C]}
worst0 = 0.0
for k, pts in where.items():
    for r, p in zip(refs(c, k - 1), pts):
        worst0 = max(worst0, float(np.abs(point(c, r, 0) - p).max()))
close('four_bar: joint points X + R offset at t = 0 vs the closed-form A, B, D, C [m]', worst0, 0.0, 4e-16)
# The crank's offset is half the crank (its node at the midpoint), and so on: lengths from the deck.
lengths = {(3, 0): LA / 2, (3, 1): LB / 2, (4, 1): LC / 2, (5, 0): LC / 2, (5, 1): LB / 2}
worst_len = max(abs(float(np.linalg.norm(c['offset'][list(refs(c, k - 1))[e]])) - L) for (k, e), L in lengths.items())
close('four_bar: |offset| = half the link length (LA, LB, LC from the deck) [m]', worst_len, 0.0, 5e-16)
worst = 0.0
for k, comps in ((3, 3), (4, 3), (5, 2)):
    r1, r2 = refs(c, k - 1)
    for s in range(c['X'].shape[0]):
        worst = max(worst, float(np.abs(point(c, r1, s) - point(c, r2, s))[:comps].max()))
close('four_bar: the two ends of hinges B, D (and x, y of in-line C) coincide at every step [m]', worst, 0.0, 3e-10)

# --- 2. beams: the deck's cards
deck = os.path.join(EXAMPLES, 'beam_offset_frames.mbd')
bm = Run(exe, deck, work, 'beams', extra=('--format', 'hdf5'))
c = read(bm.prefix + '.h5')
text = open(deck).read()
cards = []
for m in re.finditer(r'^\s*(beam3|beam2|joint):\s*(\d+),\s*([^;]*);', text, re.M):
    kind, label, body = m.group(1), int(m.group(2)), m.group(3)
    if kind == 'joint':
        nodes = [int(body.split(',')[1])]  # clamp, NODE, node, node
    else:
        nodes = [int(n) for n in re.findall(r'^\s*(\d+), null', body, re.M)]
    cards.append(('joint' if kind == 'joint' else kind, label, nodes))
got = [(str(c['category'][k]), int(c['element'][k]), [int(c['node'][r]) for r in refs(c, k)])
       for k in range(len(c['element'])) if c['category'][k] in ('joint', 'beam3', 'beam2')]
close(f'beam_offset_frames: {len(cards)} cards (clamps, beam3, beam2) and their nodes as the deck lists them',
      0 if got == cards and len(cards) == 14 else 1, 0, 0)
close('beam_offset_frames: offsets (null in the deck) [m]', float(np.abs(c['offset']).max()), 0.0, 0.0)
finish()
