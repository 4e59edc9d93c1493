"""The HDF5 result read by other tools: XDMF (meshio, and ParaView when installed), xarray with
h5netcdf (named dimensions), h5py (str attributes). docs/hdf5-schema.md "Dimensions" and "XDMF".

Decks: input-examples/output_formats.mbd (double pendulum: 3 nodes, clamp + 2 revolute hinges,
`output precision: 17`, so text = binary) and input-examples/beam_cantilever_vibration.mbd
(41 nodes, 20 beam3; default precision: the text has 16 significant digits), both with
`--format text,netcdf,hdf5`.

1. XDMF (PREFIX.xmf) through meshio's TimeSeriesReader. meshio 5 does not read XDMF hyperslab
   items (its _read_data_item knows XML, Binary and whole HDF datasets only), and every step of
   the .xmf is a hyperslab of /nodes/X, ...: the reader is given that one item type here
   (hyperslab(): start, stride and count applied to the dataset the item names), the rest
   (collection, steps, Time, Topology, Attributes) is meshio's. Checked: one step per /time
   row with that time (exact), the points as the `vertex` cells 0..N-1, and at every step the
   point data X (positions) against .mov columns 1-3: 0 for output_formats (17 digits), and for
   the beam the observed max difference (5.6e-17 m, the 16th digit of the text) within 10x,
   tolerance 5e-16. The links (Polyline) collection, read from the XML: the segments between
   node indices of each joint with two nodes (hinge 1-2, hinge 2-3) and of each beam3 (n1-n2,
   n2-n3), exactly.
2. xarray.open_dataset(h5, engine='h5netcdf'): the root has dimension `time` (coordinate = /time
   = the .out times); groups nodes, joints, forces have dims (time, node|joint|force,
   component), coordinates node = labels, component = x, y, z, matrix_component xx..zz; values
   equal NetCDF node.struct.<L>.X, elem.joint.<L>.F (bit for bit); no phony_dim anywhere.
   netCDF4-python (NetCDF-C) sees the same dimensions (time unlimited) and values.
3. h5py: every attribute of every object of the results file and of a modal file
   (--analysis modal) is str (or a number), apart from the HDF5 dimension-scale attributes
   CLASS, NAME, REFERENCE_LIST, DIMENSION_LIST, whose type the HDF5 specification fixes.
4. ParaView (pvbatch, optional: not in scripts/setup.sh): its 'XDMF Reader' gives, at the last
   step, the points of /nodes/X (difference 0) and the links as lines.
"""
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, close, failures, finish, mov_positions  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]


def run(deck, prefix, *extra):
    out = os.path.join(work, prefix)
    for ext in ('h5', 'xmf', 'nc', 'mov'):
        if os.path.exists(out + '.' + ext):
            os.remove(out + '.' + ext)
    cmd = [exe, '--quiet', '-f', os.path.join(EXAMPLES, deck), '-o', out, *extra]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f'{" ".join(cmd)}\nexit {p.returncode}\n{p.stdout}{p.stderr}')
    return out


def out_times(prefix):
    t = []
    with open(prefix + '.out') as f:
        for line in f:
            w = line.split()
            if w and w[0] == 'Step' and w[-1] == '1':
                t.append(float(w[2]))
    return np.array(t)


pend = run('output_formats.mbd', 'pendulum', '--format', 'text,netcdf,hdf5', '-D', 'TF=0.2',
           '--flush-every', '16')
beam = run('beam_cantilever_vibration.mbd', 'beam', '--format', 'text,netcdf,hdf5', '-D', 'TF=2e-3')

# --- 1. XDMF through meshio's TimeSeriesReader
import meshio  # noqa: E402
from meshio.xdmf.time_series import TimeSeriesReader  # noqa: E402


class HyperslabReader(TimeSeriesReader):
    """meshio's TimeSeriesReader, plus XDMF hyperslab items (meshio 5 has none)."""

    def _read_data_item(self, item):
        if item.get('ItemType') != 'HyperSlab':
            return super()._read_data_item(item)
        sel, data = list(item)
        start, stride, count = np.fromstring(sel.text, dtype=int, sep=' ').reshape(3, -1)
        values = super()._read_data_item(data)
        index = tuple(slice(a, a + s * c, s) for a, s, c in zip(start, stride, count))
        return values[index].reshape([int(d) for d in item.get('Dimensions').split()])


for name, prefix, tol in (('output_formats', pend, 0.0), ('beam', beam, 5e-16)):
    with h5py.File(prefix + '.h5', 'r') as f:
        labels = list(f['nodes/labels'][:])
        times = f['time'][:]
    mov = mov_positions(prefix + '.mov')
    try:
        TimeSeriesReader(prefix + '.xmf').read_points_cells()
        stock = 'reads it'
    except Exception as e:  # noqa: BLE001 (meshio raises KeyError on the hyperslab item)
        stock = f'cannot read the hyperslabs ({type(e).__name__} {e})'
    print(f'     {name}: meshio {meshio.__version__} TimeSeriesReader alone {stock}')
    with HyperslabReader(prefix + '.xmf') as r:
        points, cells = r.read_points_cells()
        close(f'{name}: XDMF steps = /time rows', r.num_steps, len(times), 0)
        close(f'{name}: XDMF cells are the nodes (vertex 0..N-1)',
              0 if [c.type for c in cells] == ['vertex'] and
              np.array_equal(cells[0].data.ravel(), np.arange(len(labels))) else 1, 0, 0)
        worst, worst_t = 0.0, 0.0
        for k in range(r.num_steps):
            t, point_data, _ = r.read_data(k)
            worst_t = max(worst_t, abs(t - times[k]))
            X = point_data['X'].reshape(len(labels), 3)
            for i, L in enumerate(labels):
                worst = max(worst, float(np.abs(X[i] - mov[L][k]).max()))
        close(f'{name}: XDMF Time values vs /time', worst_t, 0.0, 0.0)
        close(f'{name}: XDMF node positions at every step vs .mov [m]', worst, 0.0, tol)
        close(f'{name}: XDMF point data label = /nodes/labels',
              0 if list(r.read_data(0)[1]['label'].ravel()) == labels else 1, 0, 0)
        # The nodes move (else the comparison proves little).
        X0 = r.read_data(0)[1]['X'].reshape(len(labels), 3)
        Xe = r.read_data(r.num_steps - 1)[1]['X'].reshape(len(labels), 3)
        close(f'{name}: the nodes move between first and last step', 0 if np.abs(Xe - X0).max() > 1e-6 else 1, 0, 0)

# Links: the Polyline topology of the first `links` step.
root = ET.parse(pend + '.xmf').getroot()
lines = root.find("./Domain/Grid[@Name='links']/Grid/Topology")
pairs = np.fromstring(lines.find('DataItem').text, dtype=int, sep=' ').reshape(-1, 2).tolist()
close('output_formats: links = hinge 1 (nodes 1-2), hinge 2 (nodes 2-3) as node indices',
      0 if pairs == [[0, 1], [1, 2]] and lines.get('TopologyType') == 'Polyline' else 1, 0, 0)
root = ET.parse(beam + '.xmf').getroot()
pairs = np.fromstring(root.find("./Domain/Grid[@Name='links']/Grid/Topology/DataItem").text,
                      dtype=int, sep=' ').reshape(-1, 2)
with h5py.File(beam + '.h5', 'r') as f:
    labels = list(f['nodes/labels'][:])
expected = []
# beam3 b (b = 1..20) joins nodes 2b-2, 2b-1, 2b (the deck's numbering)
for b in range(1, 21):
    n = [labels.index(2 * b - 2), labels.index(2 * b - 1), labels.index(2 * b)]
    expected += [[n[0], n[1]], [n[1], n[2]]]
close('beam: links = the 40 segments of the 20 beam3 (n1-n2, n2-n3)',
      0 if sorted(map(tuple, pairs.tolist())) == sorted(map(tuple, expected)) else 1, 0, 0)

# --- 2. xarray with h5netcdf: named dimensions, values as NetCDF and text
import xarray as xr  # noqa: E402

with h5py.File(pend + '.nc', 'r') as nc:
    ds = xr.open_dataset(pend + '.h5', engine='h5netcdf')
    close('xarray root: dims == (time,)', 0 if tuple(ds.dims) == ('time',) else 1, 0, 0)
    close('xarray root: time coordinate vs .out', float(np.abs(ds['time'].values - out_times(pend)).max()), 0.0, 0.0)
    close('xarray root: time coordinate vs NetCDF time', float(np.abs(ds['time'].values - nc['time'][:]).max()), 0.0, 0.0)
    dims_seen = set(ds.dims)
    for group, entity, ncvar in (('nodes', 'node', 'node.struct.{}.X'), ('joints', 'joint', 'elem.joint.{}.F'),
                                 ('forces', 'force', 'elem.force.{}.F')):
        g = xr.open_dataset(pend + '.h5', engine='h5netcdf', group=group)
        dims_seen |= set(g.dims)
        q = ncvar.split('.')[-1]
        close(f'xarray {group}/{q}: dims == (time, {entity}, component)',
              0 if g[q].dims == ('time', entity, 'component') else 1, 0, 0)
        close(f'xarray {group}: {entity} coordinate = labels',
              0 if list(g[entity].values) == list(g['labels'].values) else 1, 0, 0)
        close(f'xarray {group}: component coordinate = x, y, z',
              0 if list(g['component'].values) == ['x', 'y', 'z'] else 1, 0, 0)
        worst = 0.0
        for L in g[entity].values:
            worst = max(worst, float(np.abs(g[q].sel({entity: L}).values - nc[ncvar.format(L)][:]).max()))
        close(f'xarray {group}/{q} vs NetCDF {ncvar.format("<L>")} (every label)', worst, 0.0, 0.0)
    g = xr.open_dataset(pend + '.h5', engine='h5netcdf', group='nodes')
    close('xarray nodes/R: dims == (time, node, matrix_component)',
          0 if g['R'].dims == ('time', 'node', 'matrix_component') else 1, 0, 0)
    close('xarray nodes: matrix_component = xx, xy, ..., zz',
          0 if list(g['matrix_component'].values) == [a + b for a in 'xyz' for b in 'xyz'] else 1, 0, 0)
    close('xarray nodes/X at node 2 vs .mov', float(np.abs(g['X'].sel(node=2).values - mov_positions(pend + '.mov')[2]).max()), 0.0, 0.0)
    for group in ('internal_forces', 'couples', 'internal_couples', 'node_momenta'):
        dims_seen |= set(xr.open_dataset(pend + '.h5', engine='h5netcdf', group=group).dims)
    bg = xr.open_dataset(beam + '.h5', engine='h5netcdf', group='beam3')
    dims_seen |= set(bg.dims)
    close('xarray beam3/F_I: dims == (time, beam, component)', 0 if bg['F_I'].dims == ('time', 'beam', 'component') else 1, 0, 0)
    phony = sorted(d for d in dims_seen if str(d).startswith('phony_dim'))
    print(f'     dimensions seen: {sorted(map(str, dims_seen))}')
    close('xarray: no phony_dim in any group', len(phony), 0, 0)

# netCDF4-python (NetCDF-C) reads the same dimensions.
try:
    import netCDF4
    with netCDF4.Dataset(pend + '.h5') as d:
        close('netCDF4: nodes/X dims == (time, node, component)',
              0 if d['nodes']['X'].dimensions == ('time', 'node', 'component') and d.dimensions['time'].isunlimited() else 1, 0, 0)
        close('netCDF4: nodes/X vs h5py', float(np.abs(d['nodes']['X'][:] - g['X'].values).max()), 0.0, 0.0)
except ImportError:
    print('     (python3-netcdf4 not installed: netCDF4 read skipped)')

# --- 3. h5py: str attributes
modal = os.path.join(work, 'modal')
p = subprocess.run([exe, '--quiet', '--analysis', 'modal', '--format', 'hdf5', '-f',
                    os.path.join(EXAMPLES, 'reduced_double_pendulum.mbd'), '-o', modal], capture_output=True, text=True)
if p.returncode != 0:
    sys.exit(f'modal run: exit {p.returncode}\n{p.stderr}')
DS_ATTRS = {'CLASS', 'NAME', 'REFERENCE_LIST', 'DIMENSION_LIST'}
for path in (pend + '.h5', beam + '.h5', modal + '.h5'):
    bad, n = [], 0
    with h5py.File(path, 'r') as f:
        objs = [('/', f)]
        f.visititems(lambda name, o: objs.append((name, o)))
        for name, o in objs:
            for k in o.attrs:
                if k in DS_ATTRS:
                    continue
                v = o.attrs[k]
                n += 1
                if isinstance(v, (bytes, np.bytes_)) or (isinstance(v, np.ndarray) and v.dtype.kind in 'SO'):
                    bad.append(f'{name}@{k}')
        strings = [v for _, o in objs for k, v in o.attrs.items() if k not in DS_ATTRS and isinstance(v, str)]
    if bad:
        print('     bytes attributes: ' + ', '.join(bad[:10]))
    close(f'{os.path.basename(path)}: attributes read as bytes by h5py (of {n}; {len(strings)} str)', len(bad), 0, 0)
with h5py.File(pend + '.h5', 'r') as f:
    close('run_status is the str "completed"', 0 if f.attrs['run_status'] == 'completed' else 1, 0, 0)
    close('names are UTF-8 strings (h5py .asstr())', 0 if f['nodes/names'].asstr()[0] == 'structural node 1' else 1, 0, 0)

# --- 4. ParaView, if installed (pvbatch with python3-paraview)
pvbatch = shutil.which('pvbatch')
script = os.path.join(work, 'pv_read.py')
with open(script, 'w') as s:
    s.write('''import sys
import numpy as np
from paraview.simple import XDMFReader
from paraview import servermanager as sm
from vtk.numpy_interface import dataset_adapter as dsa
r = XDMFReader(FileNames=[sys.argv[1]])
r.UpdatePipelineInformation()
ts = list(r.TimestepValues)
r.UpdatePipeline(ts[-1])
d = sm.Fetch(r)
it = d.NewIterator()
it.InitTraversal()
while not it.IsDoneWithTraversal():
    b = it.GetCurrentDataObject()
    name = it.GetCurrentMetaData().Get(d.NAME())
    pts = np.asarray(dsa.WrapDataObject(b).Points)
    np.save(sys.argv[2] + '_' + name + '.npy', pts)
    print(name, len(ts), b.GetNumberOfCells(), b.GetCell(0).GetNumberOfPoints())
    it.GoToNextItem()
''')
if pvbatch is None:
    print('     (pvbatch not installed: the ParaView read is skipped)')
else:
    p = subprocess.run([pvbatch, script, pend + '.xmf', os.path.join(work, 'pv')], capture_output=True,
                       text=True, timeout=240)
    got = {w[0]: [int(x) for x in w[1:]] for w in (ln.split() for ln in p.stdout.splitlines()) if len(w) == 4}
    with h5py.File(pend + '.h5', 'r') as f:
        X = f['nodes/X'][-1]
        ntimes = len(f['time'])
    close('ParaView XDMF Reader: blocks links (2 lines) and nodes (3 vertices), all steps',
          0 if got == {'links': [ntimes, 2, 2], 'nodes': [ntimes, 3, 1]} else 1, 0, 0)
    if got:
        worst = max(float(np.abs(np.load(os.path.join(work, f'pv_{b}.npy')) - X).max()) for b in got)
        close('ParaView XDMF Reader: points at the last step vs /nodes/X', worst, 0.0, 0.0)
    else:
        print(p.stdout, p.stderr)
finish()
