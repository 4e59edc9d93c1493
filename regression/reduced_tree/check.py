"""mbsolve --tree: tree extraction and coordinate partitioning on the example decks.

Expected (counted by hand from the decks' joints):
  pendulum: 1 revolute hinge, no cut, 1 DOF.
  double pendulum: 2 hinges in a chain, 2 DOF.
  four_bar (crank driven by an axial rotation): 3 coordinates, 1 driven, 2 in-line equations of
      rank 2: 0 DOF.
  n_four_bar (N = 2): 5 coordinates, 2 in-line cuts (4 equations, rank 4): 1 DOF.
  andrews: 7 coordinates, 3 in-line cuts (6 equations): 1 DOF (the test set's 7 angles and
      6 loop equations).
  parallelogram_redundant: a planar loop closed by a revolute hinge (5 equations, 2 independent
      in the plane): 1 DOF and 'redundant constraints: 3 (joints 5)'.
  torque_free_body: one free node: 3 translations + 3 rotations, 6 DOF.
  reduced_bricard (Bricard's orthogonal 6R loop: Grubler 0, mobile with 1): 5 tree hinges,
      the sixth cut (5 equations of rank 4): 1 DOF, 'redundant constraints: 1 (joints 6)'.
  --independent: q1 (crank 0) of the N four-bar accepted; refused (exit 2, with the reason):
      q3 of the slider-crank (leaves the rod's spin undetermined: singular J_v), two
      coordinates for one DOF, the driven crank of four_bar.
  An element the reduced path does not model (drive hinge in input-examples/drive_hinge.mbd):
      exit status 2 and an error naming it at file:line:col.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, close, finish, failures  # noqa: E402

exe = sys.argv[1]


def tree(deck):
    p = subprocess.run([exe, '--quiet', '--tree', '-f', os.path.join(EXAMPLES, deck)], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def field(text, name):
    m = re.search(rf'^{name}: (\d+)', text, re.M)
    return int(m.group(1)) if m else -1


CASES = {  # deck: (coordinates, driven, constraints, DOF, redundant line or None)
    'pendulum.mbd': (1, 0, 0, 1, None),
    'double_pendulum.mbd': (2, 0, 0, 2, None),
    'four_bar.mbd': (3, 1, 2, 0, None),
    'n_four_bar.mbd': (5, 0, 4, 1, None),
    'andrews.mbd': (7, 0, 6, 1, None),
    'parallelogram_redundant.mbd': (3, 0, 5, 1, 'redundant constraints: 3 (joints 5)'),
    'torque_free_body.mbd': (6, 0, 0, 6, None),
    'reduced_bricard.mbd': (5, 0, 5, 1, 'redundant constraints: 1 (joints 6)'),
}
for deck, (nq, nc, m, dof, red) in CASES.items():
    rc, out, err = tree(deck)
    close(f'{deck}: exit status', rc, 0, 0)
    close(f'{deck}: coordinates', field(out, 'coordinates'), nq, 0)
    close(f'{deck}: driven variables', field(out, 'driven variables'), nc, 0)
    close(f'{deck}: constraints', field(out, 'constraints'), m, 0)
    close(f'{deck}: degrees of freedom', field(out, 'degrees of freedom'), dof, 0)
    line = re.search(r'^redundant constraints:.*$', out, re.M)
    got = line.group(0) if line else None
    print(f"{'ok  ' if got == red else 'FAIL'} {deck}: redundancy line {got!r}")
    if got != red:
        failures.append(f'{deck} redundancy')
    if not out.rstrip().splitlines()[-1].startswith('degrees of freedom' if red is None else 'redundant'):
        failures.append(f'{deck} last line')
        print(f'FAIL {deck}: last line {out.rstrip().splitlines()[-1]!r}')

# User-proposed partitions (--independent): accepted when J_v is regular, refused otherwise.
p = subprocess.run([exe, '--quiet', '--tree', '--independent', '1', '-f', os.path.join(EXAMPLES, 'n_four_bar.mbd')],
                   capture_output=True, text=True)
ok = p.returncode == 0 and re.search(r'^  q1 .*: independent', p.stdout, re.M) and 'proposed by the user' in p.stdout
print(f"{'ok  ' if ok else 'FAIL'} n_four_bar --independent 1: crank 0 independent")
if not ok:
    failures.append('proposed partition accepted')
for deck, arg, msg in (('slider_crank.mbd', '3', 'singular J_v'), ('n_four_bar.mbd', '1,2', 'propose 1 independent'),
                       ('four_bar.mbd', '1', 'is driven')):
    p = subprocess.run([exe, '--quiet', '--tree', '--independent', arg, '-f', os.path.join(EXAMPLES, deck)],
                       capture_output=True, text=True)
    ok = p.returncode == 2 and msg in p.stderr
    print(f"{'ok  ' if ok else 'FAIL'} {deck} --independent {arg}: refused ({p.stderr.strip()})")
    if not ok:
        failures.append(f'proposed partition {deck} {arg}')

rc, out, err = tree('drive_hinge.mbd')
close('drive_hinge.mbd: exit status', rc, 2, 0)
ok = re.search(r'drive_hinge\.mbd:\d+:\d+: error: joint 4 \(drive hinge\): not supported', err) is not None
print(f"{'ok  ' if ok else 'FAIL'} drive_hinge.mbd: error names the element: {err.splitlines()[0] if err else ''}")
if not ok:
    failures.append('unsupported element message')
# Decks with no free coordinate to fit initial velocities to (only abstract nodes, or every
# coordinate driven): --tree printed nothing and crashed (SIGSEGV in Eigen's QR of an empty
# matrix, fit_velocities) before the guard.
for deck in ('scalar_functions.mbd', 'stateful_drives.mbd', 'axial_rotation.mbd'):
    rc, out, err = tree(deck)
    ok = rc == 0 and field(out, 'degrees of freedom') == 0
    print(f"{'ok  ' if ok else 'FAIL'} {deck}: --tree exits 0 with 0 degrees of freedom (exit {rc})")
    if not ok:
        failures.append(f'{deck} --tree')
finish()
