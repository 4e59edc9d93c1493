"""Beam `custom output` columns and .log lines (input-examples/beam_custom_output.mbd).

References: the .act layout of MBDyn's Beam::Output (label, f and m of point I, then of point
II, in the section frame; then per selected quantity its values at point I then II, in the order
nu, k, nuP, kP), its ReadBeamCustomOutput rules (`none` clears, a repeated flag is an error,
strain rates of elastic beams are ignored with a warning) and its .log line
"beam3: L n1 f1 n2 f2 n3 f3". The values in the new columns are checked against independent
relations:
  - cantilever 1 (elastic, axial tip force rising as a half cosine to N at 0.4 s): f_x = EA nu_x
    at every point (the law, 1e-15 relative to N, observed 1.8e-16; k_z exactly 0, 1e-15);
    nu_x = N / EA at the end (quasi-static: the first axial mode, ~500 rad/s, is 200x faster than
    the load's rise; 1e-3 relative, observed 4e-5 .. 1.9e-4);
  - cantilever 2 (viscoelastic, C = BETA K, tip couple rising as a half cosine): m_z = EJ (k_z +
    BETA kP_z) at every point and step (5e-15 relative to the largest m_z, observed 1.1e-15);
    kP_z = d k_z / dt against central differences of the k_z column (dt = 1e-3; the integrator's
    velocities are not the differences of its positions, and the bending modes up to ~100 rad/s
    are excited: 3e-4 relative to max |kP_z|, observed 1.9e-5 .. 8.7e-5; a column of strains
    instead of rates would be off by O(1)).
The same run as NetCDF and HDF5: the strain variables equal the .act columns (1e-15 relative);
beams without a quantity have no NetCDF variable for it and NaN in HDF5.

Positions and orientations of the evaluation points (`position`, `orientation`, `configuration`;
MBDyn's NetCDF elem.beam.<L>.X_I and R_I / Phi_I / E_I, as Beam::OutputPrepare defines them: not
in the .act, point by point X, R, F, M, nu, k, nuP, kP):
  - X_I, X_II = sum N_i(xi) (x_i + R_i f_i), the shape functions at xi = -+1/sqrt(3) (beam3) and
    0 (beam2) applied here to the nodes' .mov positions and Euler angles (16 digits) and the
    deck's offsets: 4e-15 m at every step (observed 8.9e-16);
  - R_I, R_II: the section frame, recomputed here from the .mov node orientations with the
    interpolation of the rotation vectors relative to the reference node (as MBDyn's beam.cc,
    beam2.cc; R = Ra exp(sum N_i phi_i) Ro, Ro from the deck's initial configuration and
    section orientation): 2e-14 at every step (observed 4.2e-15; the sections rotate by more
    than 0.03 rad);
  - analytic: the unloaded straight beam 5 has X_I = (H (1 - 1/sqrt(3)), 2.05, 0), R_I = I at
    every step (5e-16, an ulp of 2.05 m: observed 1.4e-17), and beam 8's section (`from nodes`)
    starts as its nodes' frame Rx(pi/6);
  - NetCDF = HDF5: X bit for bit; R_I (orientation matrix) bit for bit; Phi_I the rotation vector
    of HDF5's R_I, E_I its Euler angles (euler123, euler321) in degrees, both to 2e-14 (observed
    4.0e-15);
  - `none` also drops MBDyn's default F_I, M_I from NetCDF (beams 3 and 7; NaN in HDF5), the
    others keep them; the .act columns do not change (checked above).
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, euler123, expm, finish, rot, skew  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
EA, EJ, BETA, N, DT = 1e5, 10.0, 1e-2, 20.0, 1e-3
deck = os.path.join(EXAMPLES, 'beam_custom_output.mbd')
r = Run(exe, deck, work, 'custom')
act = {k: r.rows('act', k) for k in range(1, 7)}

# Column counts: label + 12 forces, + 6 per selected quantity.
for k, n in ((1, 25), (2, 25), (3, 25), (4, 25), (5, 13), (6, 13)):
    close(f'beam {k}: .act columns', act[k].shape[1], n, 0)
w = subprocess.run([exe, '--check', '-f', deck, '-o', os.path.join(work, 'warn')],
                   capture_output=True, text=True)
close('warning for the strain rates of elastic beam 5 (file:line:col)',
      int('beam_custom_output.mbd:' in w.stderr and
          'strain rates only for viscoelastic beams (ignored)' in w.stderr), 1, 0)

# Cantilever 1: columns 13-18 nu (I, II), 19-24 k (I, II).
for k in (1, 2):
    a = act[k]
    for p in range(2):
        fx, nux = a[:, 1 + 6 * p], a[:, 13 + 3 * p]
        close(f'beam {k} point {p + 1}: max |f_x - EA nu_x| / N', np.abs(fx - EA * nux).max() / N,
              0, 1e-15)  # observed 1.8e-16
        close(f'beam {k} point {p + 1}: nu_x at the end', nux[-1], N / EA, 1e-3, relative=True)
        kz = a[:, 19 + 3 * p + 2]
        close(f'beam {k} point {p + 1}: max |k_z| (axial load only)', np.abs(kz).max(), 0,
              1e-15)  # observed 0

# Cantilever 2: columns 13-18 k (I, II), 19-24 kP (I, II).
for k in (3, 4):
    a = act[k]
    for p in range(2):
        mz, kz, kpz = a[:, 6 + 6 * p], a[:, 13 + 3 * p + 2], a[:, 19 + 3 * p + 2]
        scale = np.abs(mz).max()
        close(f'beam {k} point {p + 1}: max |m_z - EJ (k_z + BETA kP_z)| / max |m_z|',
              np.abs(mz - EJ * (kz + BETA * kpz)).max() / scale, 0, 5e-15)  # observed 1.1e-15
        fd = (kz[2:] - kz[:-2]) / (2 * DT)
        close(f'beam {k} point {p + 1}: kP_z vs central differences of k_z',
              np.abs(kpz[1:-1] - fd).max() / np.abs(kpz).max(), 0, 3e-4)  # obs. <= 8.7e-5

# .log lines: nodes and offsets.
log = open(r.prefix + '.log', encoding='utf-8').read().splitlines()
want = {1: 'beam3: 1 10 0 0 0 11 0 0 0 12 0 0 0',
        5: 'beam3: 5 30 0 0.05 0 31 0 0.05 0 32 0 0.05 0'}
for k, line in want.items():
    close(f'.log line of beam {k}: "{line}"', int(line in log), 1, 0)

# A flag given twice (here through "strains" then "linear strain") is an input error.
text = open(deck, encoding='utf-8').read()
bad = os.path.join(work, 'duplicate.mbd')
with open(bad, 'w', encoding='utf-8') as f:
    f.write(text.replace('custom output, strains;', 'custom output, strains, linear strain;', 1))
b = Run(exe, bad, work, 'duplicate', expect_rc=2)
line = 1 + text[:text.index('custom output, strains;')].count('\n')
close('duplicate flag: error names the file, line and flag',
      int(f'duplicate.mbd:{line}:' in b.stderr and "duplicate beam custom output 'linear strain'"
          in b.stderr), 1, 0)

# NetCDF and HDF5 (MBDyn's elem.beam.<L>.nu_I, k_I, nuP_I, kP_I, ..._II): the same run written in
# all three formats; every selected strain column equals the .act one (16 digits in .act: to
# 1e-15 relative); a beam without the quantity has no NetCDF variable and NaN in HDF5.
import h5py  # noqa: E402

fr = Run(exe, deck, work, 'formats', extra=['--format', 'text,netcdf,hdf5'])
fprefix = fr.prefix
fact = {k: fr.rows('act', k) for k in range(1, 7)}
selected = {1: ('nu', 'k'), 2: ('nu', 'k'), 3: ('k', 'kP'), 4: ('k', 'kP'), 5: (), 6: ()}
worst_nc = worst_h5 = 0.0
missing = []
with h5py.File(fprefix + '.nc', 'r') as nc, h5py.File(fprefix + '.h5', 'r') as h5:
    labels = list(h5['beam3/labels'][:])
    for k, names in selected.items():
        a, i = fact[k], labels.index(k)
        for j, name in enumerate(names):
            for p_, suffix in enumerate(('_I', '_II')):
                ref = a[:, 13 + 6 * j + 3 * p_:16 + 6 * j + 3 * p_]
                scale = np.maximum(np.abs(ref), 1e-300)
                worst_nc = max(worst_nc, float((np.abs(nc[f'elem.beam.{k}.{name}{suffix}'][:] - ref) / scale).max()))
                worst_h5 = max(worst_h5, float((np.abs(h5[f'beam3/{name}{suffix}'][:, i, :] - ref) / scale).max()))
        for name in ('nu', 'k', 'nuP', 'kP'):
            if name in names:
                continue
            if f'elem.beam.{k}.{name}_I' in nc:
                missing.append(f'NetCDF elem.beam.{k}.{name}_I exists')
            if name + '_I' in h5['beam3'] and not np.all(np.isnan(h5[f'beam3/{name}_I'][:, i, :])):
                missing.append(f'HDF5 beam3/{name}_I of beam {k} is not NaN')
    close('NetCDF nu_I ... kP_II vs .act (max relative difference)', worst_nc, 0.0, 1e-15)
    close('HDF5 beam3/nu_I ... kP_II vs .act (max relative difference)', worst_h5, 0.0, 1e-15)
    close('unselected quantities: no NetCDF variable, NaN in HDF5 (' + '; '.join(missing) + ')', len(missing), 0, 0)
    close('HDF5 beam3 has no nuP (no beam selects it)', int('nuP_I' in h5['beam3']), 0, 0)

    # Evaluation points: nodes (label -> .mov rows), offsets, initial node and section frames.
    H, XI3, A4 = 0.25, 1 / np.sqrt(3), np.pi / 6
    mov = {n: fr.rows('mov', n) for n in (20, 21, 22, 23, 24, 10, 11, 12, 30, 31, 32, 40, 41, 42)}
    # beam: (group, nodes, offset of every node, initial node frame, section frame at the start,
    #        orientation in NetCDF)
    beams = {1: ('beam3', (10, 11, 12), (0, 0, 0), np.eye(3), np.eye(3), 'R'),
             3: ('beam3', (20, 21, 22), (0, 0, 0), np.eye(3), np.eye(3), 'E123'),
             4: ('beam3', (22, 23, 24), (0, 0, 0), np.eye(3), np.eye(3), 'Phi'),
             5: ('beam3', (30, 31, 32), (0, 0.05, 0), np.eye(3), np.eye(3), 'E123'),
             7: ('beam2', (40, 41), (0, 0, 0), rot(0, A4), np.eye(3), 'Phi'),
             8: ('beam2', (41, 42), (0, 0, 0.02), rot(0, A4), rot(0, A4), 'E321')}

    def rv_log(R):  # rotation vector of R (angle below pi), accurate near the identity
        w = np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])  # 2 sin(a) n
        s, c = np.linalg.norm(w) / 2, (np.trace(R) - 1) / 2
        a = np.arctan2(s, c)
        return w * (a / (2 * s) if s > 1e-300 else 0.5)

    def shape(nn, xi):
        return np.array([xi * (xi - 1) / 2, 1 - xi * xi, xi * (xi + 1) / 2]) if nn == 3 else \
            np.array([(1 - xi) / 2, (1 + xi) / 2])

    def section(nodes_R, N, ref, Ro):  # R = Ra exp(sum N_i phi_i) Ro, phi_i relative to `ref`
        Ra = nodes_R[ref]
        g = sum(N[i] * rv_log(Ra.T @ nodes_R[i]) for i in range(len(N)) if i != ref)
        return Ra @ expm(g) @ Ro

    def rotvec(R):
        c = np.clip((np.trace(R) - 1) / 2, -1, 1)
        a = np.arccos(c)
        w = np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])
        return w * (a / (2 * np.sin(a)) if a > 1e-8 else 0.5)

    def euler321(deg):
        a = np.radians(deg)
        return rot(2, a[0]) @ rot(1, a[1]) @ rot(0, a[2])

    T = len(h5['time'])
    worst = {'X': 0.0, 'R': 0.0, 'nc_X': 0.0, 'nc_R': 0.0, 'nc_rot': 0.0, 'analytic': 0.0}
    max_angle = {3: 0.0, 4: 0.0, 7: 0.0, 8: 0.0}
    created = []  # NetCDF variables in creation (definition) order
    nc.id.links.iterate(lambda n: created.append(n.decode()), idx_type=h5py.h5.INDEX_CRT_ORDER)
    problems = []
    for b, (grp, nodes, off, R0, Rs0, form) in beams.items():
        nn = len(nodes)
        ref = 1  # middle node of beam3, node 2 of beam2
        xis = (-XI3, XI3) if nn == 3 else (0.0,)
        i = list(h5[grp + '/labels'][:]).index(b)
        # Ro: the section frame at the start relative to Ra R(g) (the deck's configuration).
        Ro = [section([R0] * nn, shape(nn, xi), ref, np.eye(3)).T @ Rs0 for xi in xis]
        for s_, xi in enumerate(xis):
            sfx = ('_I', '_II')[s_]
            N = shape(nn, xi)
            X5, R5 = h5[f'{grp}/X{sfx}'][:, i, :], h5[f'{grp}/R{sfx}'][:, i, :]
            if b == 1:  # `orientation` only: no NetCDF X_I, NaN in HDF5
                if f'elem.beam.1.X{sfx}' in nc or not np.all(np.isnan(X5)):
                    problems.append(f'beam 1 (no position flag): NetCDF X{sfx} exists or HDF5 not NaN')
            elif not np.array_equal(nc[f'elem.beam.{b}.X{sfx}'][:], X5):
                problems.append(f'NetCDF elem.beam.{b}.X{sfx} differs from HDF5 {grp}/X{sfx}')
            for t in range(T):
                xs = [mov[n][t, 1:4] for n in nodes]
                Rs = [euler123(mov[n][t, 4:7]) for n in nodes]
                p = sum(N[k] * (xs[k] + Rs[k] @ np.array(off)) for k in range(nn))
                if b != 1:
                    worst['X'] = max(worst['X'], float(np.abs(X5[t] - p).max()))
                Rsec = section(Rs, N, ref, Ro[s_])
                Rh = R5[t].reshape(3, 3)
                worst['R'] = max(worst['R'], float(np.abs(Rh - Rsec).max()))
                if b in max_angle:
                    max_angle[b] = max(max_angle[b], float(np.linalg.norm(rotvec(Rh @ Rs0.T))))
                if b == 5:
                    worst['analytic'] = max(worst['analytic'], float(np.abs(X5[t] - [H * (1 + xi), 2.05, 0]).max()),
                                            float(np.abs(Rh - np.eye(3)).max()))
            # NetCDF orientation, as the beam's description asks.
            Rh = R5.reshape(T, 3, 3)
            if form == 'R':
                v = nc[f'elem.beam.{b}.R{sfx}'][:]
                if not np.array_equal(v.reshape(T, 9), R5):
                    problems.append(f'NetCDF elem.beam.{b}.R{sfx} differs from HDF5')
            elif form == 'Phi':
                v = nc[f'elem.beam.{b}.Phi{sfx}'][:]
                worst['nc_rot'] = max(worst['nc_rot'], max(float(np.abs(v[t] - rotvec(Rh[t])).max()) for t in range(T)))
            else:
                v = nc[f'elem.beam.{b}.E{sfx}'][:]
                f = euler123 if form == 'E123' else euler321
                worst['nc_rot'] = max(worst['nc_rot'], max(float(np.abs(f(v[t]) - Rh[t]).max()) for t in range(T)))
            others = [n for n in ('R', 'Phi', 'E') if n != form[0] and n != form[:3] and f'elem.beam.{b}.{n}{sfx}' in nc]
            if others:
                problems.append(f'beam {b}: unexpected NetCDF orientation variables {others}')
        # NetCDF variable order of a point, as MBDyn: X, R, F, M, nu, k, nuP, kP.
        order = [k.split('.')[-1] for k in created if k.startswith(f'elem.beam.{b}.')]
        want = [n + sfx for sfx in (('_I', '_II') if nn == 3 else ('_I',))
                for n in ('X', 'R', 'Phi', 'E', 'F', 'M', 'nu', 'k', 'nuP', 'kP')]
        if order != [n for n in want if n in order]:
            problems.append(f'beam {b}: NetCDF order {order}')
    close('X_I, X_II vs sum N_i (x_i + R_i f_i) from .mov (max abs, m)', worst['X'], 0.0, 4e-15)  # 8.9e-16
    close('R_I, R_II vs rotation-vector interpolation of the .mov orientations (max abs)', worst['R'], 0.0,
          2e-14)  # observed 4.2e-15
    for b, a in max_angle.items():  # the interpolation is exercised: the sections do rotate
        close(f'beam {b}: largest section rotation {a:.3f} rad > 0.03 rad', int(a > 0.03), 1, 0)
    # observed 1.4e-17; 5e-16 is an ulp of the 2.05 m coordinate (round-off, compiler-dependent)
    close('beam 5 (unloaded, straight): X_I, X_II and R = I analytic (max abs)', worst['analytic'], 0.0, 5e-16)
    R8 = h5['beam2/R_I'][0, list(h5['beam2/labels'][:]).index(8), :].reshape(3, 3)
    close('beam 8 (from nodes): R_I at the start = Rx(pi/6)', float(np.abs(R8 - rot(0, A4)).max()), 0.0, 1e-15)
    close('NetCDF Phi_I / E_I vs HDF5 R_I (max abs, matrix entries or rad)', worst['nc_rot'], 0.0,
          2e-14)  # observed 4.0e-15
    # `none`: no NetCDF F_I, M_I (MBDyn's default cleared), NaN in HDF5; the others keep them.
    for b, grp, none in ((3, 'beam3', True), (4, 'beam3', False), (7, 'beam2', True), (8, 'beam2', False)):
        i = list(h5[grp + '/labels'][:]).index(b)
        for n in ('F_I', 'M_I'):
            if (f'elem.beam.{b}.{n}' in nc) == none:
                problems.append(f'beam {b}: NetCDF {n} ' + ('present despite none' if none else 'missing'))
            if bool(np.all(np.isnan(h5[f'{grp}/{n}'][:, i, :]))) != none:
                problems.append(f'beam {b}: HDF5 {grp}/{n} ' + ('not NaN' if none else 'NaN'))
    # Beams without the flags: no NetCDF variables, NaN in HDF5 (beam 2: strains only; 6: none).
    for b in (2, 6):
        i = labels.index(b)
        for n in ('X_I', 'R_I', 'Phi_I', 'E_I'):
            if f'elem.beam.{b}.{n}' in nc:
                problems.append(f'beam {b}: NetCDF {n} exists')
        for n in ('X_I', 'R_I'):
            if not np.all(np.isnan(h5[f'beam3/{n}'][:, i, :])):
                problems.append(f'beam {b}: HDF5 beam3/{n} is not NaN')
    close('positions/orientations: NetCDF names, order, presence (' + '; '.join(problems) + ')', len(problems), 0, 0)
finish()
