"""The result viewer (scripts/mbsolve-view, docs/viewer.md) in a real browser: Debian's headless
Chromium, driven by playwright-core (viewer/test/browse.mjs), loads the pages made from
input-examples/four_bar.mbd and input-examples/beam_rotating.mbd (-D TF=2) and this compares
what the page shows with the .mov file (text output, independent of the HDF5 file the page is
made from):

- each node's position in the page at t = 0, at the end (the slider moved to its last frame,
  as a user does) and at the frame 1/8 along the slider (`middle`; its time is an output time
  of the .out file): the .mov positions (both decks print 16 digits). The page stores positions
  in float32 relative to the centre of the motion: observed 1.4e-8 m (four_bar), 2.9e-8 m
  (beam, 1 m long); tolerance 3e-7 m.
- each node's screen position: the projection of its .mov position through the page's camera
  (its view-projection matrix and canvas rectangle): observed 8.3e-6 px; tolerance 1e-4 px.
- the screenshot at those positions: the model is drawn there (a pixel within 2 px that is not
  the background colour), at t = 0 and at the end; the screenshot is not blank (> 0.5 % of the
  3D view's pixels differ from the background);
- moving the slider moves the model: the middle frame's nodes are elsewhere than at t = 0, where
  the .mov puts them; Play advances the frame;
- no JavaScript error (console error, page error) and no network request (the page is offline).

Skipped (exit 77) with a message where Chromium, Node.js or viewer/node_modules is missing
(scripts/test.sh installs them: scripts/setup.sh mbs_install_viewer).
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import EXAMPLES, Run, close, finish, mov_positions  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
ROOT = os.path.dirname(EXAMPLES)
VIEWER = os.path.join(ROOT, 'viewer')
chromium = os.environ.get('MBS_CHROMIUM', '/usr/bin/chromium')
node = shutil.which('node')
missing = [what for what, ok in (
    (f'Chromium ({chromium}; Debian package chromium)', os.path.exists(chromium)),
    ('Node.js 20 or later (node; playwright-core 1.65 needs it)',
     node is not None and int(subprocess.run([node, '--version'], capture_output=True, text=True).stdout.strip().lstrip('v').split('.')[0] or 0) >= 20),
    ('viewer/node_modules (cd viewer && npm ci)', os.path.isdir(os.path.join(VIEWER, 'node_modules', 'playwright-core'))),
    ('viewer/dist/viewer.js (cd viewer && npm run build)', os.path.isfile(os.path.join(VIEWER, 'dist', 'viewer.js'))),
) if not ok]
if missing:
    print('SKIPPED: the browser test of the viewer needs ' + ', '.join(missing) +
          '; scripts/test.sh installs them (scripts/setup.sh)')
    sys.exit(77)


def out_times(path):
    t = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if w and w[0] == 'Step':
                t.append(float(w[2]))
    return np.array(t)


def png(path):
    import matplotlib.image as mpimg
    return (mpimg.imread(path)[:, :, :3] * 255).round().astype(int)


BG = np.array([0xf4, 0xf6, 0xf8])


def check(name, deck, defines, steps_expected):
    r = Run(exe, os.path.join(EXAMPLES, deck), work, name, defines=defines, extra=('--format', 'text,hdf5'))
    page = os.path.join(work, name + '.html')
    p = subprocess.run([sys.executable, os.path.join(ROOT, 'scripts', 'mbsolve-view'), r.prefix + '.h5', '-o', page],
                       capture_output=True, text=True)
    close(f'{name}: mbsolve-view exit status', p.returncode, 0, 0)
    if p.returncode:
        print(p.stderr)
        return
    size = os.path.getsize(page)
    print(f'     {name}: page {size / 1e6:.2f} MB; {p.stderr.strip()}')
    state = os.path.join(work, name + '.json')
    b = subprocess.run([node, os.path.join(VIEWER, 'test', 'browse.mjs'), page, state, os.path.join(work, name)],
                       capture_output=True, text=True, timeout=180, cwd=VIEWER)
    close(f'{name}: browser run exit status', b.returncode, 0, 0)
    if b.returncode:
        print(b.stdout[-3000:], b.stderr[-3000:])
        return
    s = json.load(open(state))
    errors = [m for m in s['console'] if m.startswith('error')] + s['pageErrors'] + s['first']['errors'] + s['last']['errors']
    for e in errors:
        print('     JS:', e)
    close(f'{name}: JavaScript errors logged', len(errors), 0, 0)
    close(f'{name}: network requests (the page is offline)', len(s['requests']), 0, 0)
    print(f"     {name}: loaded in {s['loadSeconds']:.2f} s, {s['nFrames']} frames")
    m = mov_positions(r.prefix + '.mov')
    t_out = out_times(r.prefix + '.out')
    t_all = np.concatenate([[0.0], t_out]) if len(t_out) + 1 == len(next(iter(m.values()))) else t_out
    close(f'{name}: output steps in the .mov', len(t_all), steps_expected, 0)
    shots = {'first': png(os.path.join(work, name + '_first.png')), 'last': png(os.path.join(work, name + '_last.png'))}
    moved = 0.0
    for which in ('first', 'middle', 'last'):
        st = s[which]
        k = int(np.argmin(np.abs(t_all - st['time'])))
        close(f'{name} {which}: page time {st["time"]:.6g} s is an output time', abs(t_all[k] - st['time']), 0, 1e-12)
        close(f'{name} {which}: slider at the page frame', st['slider'], st['frame'], 0)
        vp = np.array(st['camera']['viewProj']).reshape(4, 4).T  # three.js: column-major
        left, top, width, height = st['camera']['rect']
        werr = serr = 0.0
        drawn = 0
        for n in st['nodes']:
            x = m[n['label']][k]
            werr = max(werr, float(np.abs(np.array(n['world']) - x).max()))
            c = vp @ np.append(x - np.array(st['camera']['center']), 1.0)
            sx, sy = left + (c[0] / c[3] + 1) / 2 * width, top + (1 - c[1] / c[3]) / 2 * height
            serr = max(serr, abs(sx - n['screen'][0]), abs(sy - n['screen'][1]))
            if which in shots:
                img = shots[which]
                i, j = int(round(sy)), int(round(sx))
                win = img[max(i - 2, 0):i + 3, max(j - 2, 0):j + 3]
                drawn += int((np.abs(win - BG).sum(axis=2) > 30).any())
            if which == 'middle':
                moved = max(moved, float(np.linalg.norm(x - m[n['label']][0])))
        close(f'{name} {which}: node positions in the page vs .mov at t = {t_all[k]:.6g} s [m]', werr, 0, 3e-7)
        close(f'{name} {which}: node screen positions vs the projection of the .mov positions [px]', serr, 0, 1e-4)
        if which in shots:
            close(f'{name} {which}: screenshot: nodes where the model is drawn', drawn, len(st['nodes']), 0)
            view = shots[which][80:500]
            frac = float((np.abs(view - BG).sum(axis=2) > 30).mean())
            print(f'     {name} {which}: {100 * frac:.1f} % of the 3D view drawn')
            close(f'{name} {which}: screenshot not blank (drawn fraction > 0.5 %)', 0 if frac > 0.005 else 1, 0, 0)
    close(f'{name}: the slider moved the model (largest node displacement t = 0 -> 1/8, > 0.05 m)',
          0 if moved > 0.05 else 1, 0, 0)
    close(f'{name}: Play advanced the frame', 0 if s['afterPlay'] > 0 else 1, 0, 0)
    return size


check('four_bar', 'four_bar.mbd', None, 2001)
check('beam', 'beam_rotating.mbd', {'TF': 2.0}, 1001)
finish()
