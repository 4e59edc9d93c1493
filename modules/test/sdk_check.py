"""The installed module SDK builds and runs a module out of tree.

  sdk_check.py <mbsolve build dir> <scratch dir> <cmake>

1. `cmake --install <build> --prefix <scratch>/prefix`: mbsolve, the example modules, the
   header <mbsolve/mbsolve_module.h> and the CMake package (find_package(mbsolve)).
2. Configures and builds modules/test/out_of_tree (a 6-line CMakeLists with
   mbsolve_add_module()) against that prefix only (CMAKE_PREFIX_PATH), and installs the module
   into the install's module folder (mbsolve_MODULE_DIR).
3. Runs the installed mbsolve on oscillator.mbd (copied to the scratch dir, so neither the deck's
   folder nor MBSOLVE_MODULE_PATH can find the modules: both come from the install's folder):
   x(t) of the mass on the module's spring must follow 0.1 cos(10 t) to 1e-6 m over 1 s at
   dt = 1e-4 (measured 7.8e-8 m), and the .usr force |F| = k |x|.
"""
import os
import shutil
import subprocess
import sys

import numpy as np

build, work, cmake = sys.argv[1], sys.argv[2], sys.argv[3]
here = os.path.dirname(os.path.abspath(__file__))
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
prefix = os.path.join(work, 'prefix')
env = dict(os.environ)
env.pop('MBSOLVE_MODULE_PATH', None)


def run(cmd, **kw):
    print('+', ' '.join(cmd))
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, **kw)
    if p.returncode != 0:
        print(p.stdout, p.stderr)
        sys.exit(f'failed with exit status {p.returncode}')
    return p


run([cmake, '--install', build, '--prefix', prefix])
for f in ('include/mbsolve/mbsolve_module.h', 'bin/mbsolve'):
    if not os.path.exists(os.path.join(prefix, f)):
        sys.exit(f'not installed: {f}')
oot = os.path.join(work, 'oot-build')
run([cmake, '-S', os.path.join(here, 'out_of_tree'), '-B', oot, f'-DCMAKE_PREFIX_PATH={prefix}',
     '-DCMAKE_BUILD_TYPE=Release'])
run([cmake, '--build', oot])
run([cmake, '--install', oot])
moddir = [d for d, _, files in os.walk(prefix) if 'libanchor_spring.so' in files]
print('module installed in', moddir)
deck = os.path.join(work, 'oscillator.mbd')
shutil.copy(os.path.join(here, 'out_of_tree', 'oscillator.mbd'), deck)
run([os.path.join(prefix, 'bin', 'mbsolve'), '-s', deck])


def rows(ext):
    with open(os.path.join(work, 'oscillator.' + ext)) as f:
        return np.array([[float(v) for v in line.split()] for line in f if line.split()[0] == '1'])


t = []
with open(os.path.join(work, 'oscillator.out')) as f:
    for line in f:
        w = line.split()
        if w and w[0] == 'Step' and w[-1] == '1':
            t.append(float(w[2]))
t = np.array(t)
mov, usr = rows('mov'), rows('usr')
err = np.abs(mov[:, 1] - 0.1 * np.cos(10 * t)).max()
ferr = np.abs(usr[:, 1] - 100 * np.abs(mov[:, 1])).max()
print(f'max |x - 0.1 cos(10 t)| = {err:.3g} m (tol 1e-6); max |F - k|x|| = {ferr:.3g} N (tol 1e-9)')
if not (err < 1e-6 and ferr < 1e-9 and len(t) > 9000):
    sys.exit('out-of-tree module results are wrong')
print('out-of-tree module built against the installed SDK loads and runs')
