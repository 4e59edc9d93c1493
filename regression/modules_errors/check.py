"""Module errors: each bad deck (written here) must stop mbsolve with exit status 2 and a message
at the right file:line:col. Modules: the examples (modules/) and the broken test modules of
modules/abi_test (built into <build>/lib/mbsolve/abi_test, found through MBSOLVE_MODULE_PATH or
`loadable path:`):
  missing library (folders searched listed), a file that is not a shared library (dlerror text),
  a library without mbs_module_abi_version, a module without mbs_module_init, a module built for
  another ABI version (both versions named, init never called), bad `module load:` arguments
  (read by the module through the C parse API, and refused by the module), bad `user defined:`
  arguments, an unknown element type, `user defined` before any module, bad law and drive
  arguments, --module with a missing module (and --module with an existing one: exit 0).
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from mbs_check import close, failures, finish  # noqa: E402

exe, work = sys.argv[1], sys.argv[2]
abi_dir = os.path.normpath(os.path.join(os.path.dirname(exe), '..', 'lib', 'mbsolve', 'abi_test'))
os.environ['MBSOLVE_MODULE_PATH'] = abi_dir
os.environ['MBS_ABI_TEST_DIR'] = abi_dir

HEAD = """begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; end: initial value;
"""
MOTOR_MODEL = """begin: control data; structural nodes: 2; loadable elements: 1; end: control data;
begin: nodes;
    structural: 1, static, null, eye, null, null;
    structural: 2, static, null, eye, null, null;
end: nodes;
begin: elements;
"""


def expect(name, text, token, fragment, args=(), nth=1):
    """Runs mbsolve --check on `text`; exit 2 and 'NAME.mbd:L:C: error: ...fragment' where L:C is
    the nth occurrence of `token`."""
    deck = os.path.join(work, name + '.mbd')
    with open(deck, 'w') as f:
        f.write(text)
    pos = -1
    for _ in range(nth):
        pos = text.index(token, pos + 1)
    line = text.count('\n', 0, pos) + 1
    col = pos - (text.rfind('\n', 0, pos) + 1) + 1
    p = subprocess.run([exe, '--check', *args, deck], capture_output=True, text=True)
    where = f'{deck}:{line}:{col}: error:'
    ok = p.returncode == 2 and where in p.stderr and fragment in p.stderr
    print(f"{'ok  ' if ok else 'FAIL'} {name}: exit {p.returncode}, expected {where} ... {fragment!r}")
    if not ok:
        print(p.stderr)
        failures.append(name)
    return p.stderr


# 1. missing library: the message lists every folder searched
err = expect('missing', 'module load: "no_such_module";\n' + HEAD, '"no_such_module"',
             "cannot find module 'no_such_module' (looked for no_such_module, no_such_module.so, "
             "libno_such_module, libno_such_module.so)")
close('missing: the searched folders are listed (deck folder, MBSOLVE_MODULE_PATH, install)',
      float(work in err and abi_dir in err and 'lib/mbsolve/modules' in err), 1.0, 0)

# 2. not a shared library: dlopen's own message
with open(os.path.join(work, 'libgarbage.so'), 'w') as f:
    f.write('this is not an ELF file, only text long enough for the loader to read a header\n' * 4)
expect('not_elf', HEAD + 'module load: "garbage";\n', '"garbage"', 'cannot load module')
expect('not_elf_dlerror', HEAD + 'module load: "garbage";\n', '"garbage"', 'invalid ELF header')

# 3.-5. entry points and ABI version
expect('not_a_module', HEAD + 'module load: "not_a_module";\n', '"not_a_module"',
       'is not an mbsolve module: it has no mbs_module_abi_version()')
expect('no_entry', HEAD + 'module load: "libno_entry.so";\n', '"libno_entry.so"',
       'has no entry point mbs_module_init')
err = expect('wrong_abi', HEAD + 'loadable path: "$MBS_ABI_TEST_DIR";\nmodule load: "wrong_abi";\n',
             '"wrong_abi"', 'was built for module ABI version 42, but this mbsolve has ABI version 1')
close('wrong_abi: mbs_module_init was not called', float('init must not be called' in err), 0.0, 0)

# 6.-7. module arguments, read through the C parse API
expect('module_arg_type', HEAD + 'module load: "failing_init", gain, "high";\n', '"high"', 'gain')
expect('module_arg_keyword', HEAD + 'module load: "failing_init", gian, 2.;\n', 'gian', "expected 'gain'")
expect('module_arg_refused', HEAD + 'module load: "failing_init", gain, -1.5;\n', '-1.5',
       'failing_init: the gain must not be negative')
expect('module_arg_extra', HEAD + 'module load: "failing_init", gain, 1., 2.;\n', '2.;', 'did not read this argument')

# 8. element cards
MOTOR = ('    user defined: 1, dc motor, 1, 2, axis, 0., 0., 1.,\n'
         '        resistance, 2., inductance, {L}, torque constant, 0.5, voltage, const, 12.;\n'
         'end: elements;\n')
expect('no_module_yet', HEAD + MOTOR_MODEL + MOTOR.format(L='0.05'), 'user defined',
       "no module loaded so far defines 'user defined' elements")
LOAD = 'module load: "dc_motor";\n'
expect('motor_inductance', LOAD + HEAD + MOTOR_MODEL + MOTOR.format(L='0.'), '0., torque',
       'the inductance must be positive')
expect('motor_node', LOAD + HEAD + MOTOR_MODEL + MOTOR.format(L='0.05').replace('dc motor, 1, 2', 'dc motor, 1, 7'),
       '7, axis', 'unknown label 7 for structural node')
expect('motor_keyword', LOAD + HEAD + MOTOR_MODEL + MOTOR.format(L='0.05').replace('resistance', 'resistence'),
       'resistence', "expected 'resistance'")
expect('motor_unknown_type', LOAD + HEAD + MOTOR_MODEL + MOTOR.format(L='0.05').replace('dc motor', 'dc motr'),
       'dc motr', "did you mean 'dc motor'")

# 9. law and drive arguments
LAW = ('module load: "nonlinear_spring";\n' + HEAD +
       'begin: control data; end: control data;\n'
       'constitutive law: 1, 1, nonlinear spring damper, 100., 10., damping, -2.;\n')
expect('law_damping', LAW, '-2.', 'the damping must not be negative')
DRIVE = ('module load: "smooth_step";\n' + HEAD +
         'begin: control data; end: control data;\n'
         'drive caller: 1, smooth step, 1., 0.5, 0., 1.;\n')
expect('drive_order', DRIVE, '0.5', 'the end x1 must be greater than the start x0')

# 10. --module with a missing module
p = subprocess.run([exe, '--check', '--module', 'nope', os.path.join(work, 'missing.mbd')],
                   capture_output=True, text=True)
ok = p.returncode == 2 and "--module nope: cannot find module 'nope'" in p.stderr
print(f"{'ok  ' if ok else 'FAIL'} --module nope: exit {p.returncode}")
if not ok:
    print(p.stderr)
    failures.append('--module')
# 11. --module that exists: a deck using `user defined: dc motor` without `module load:`
deck = os.path.join(work, 'cli_module.mbd')
with open(deck, 'w') as f:
    f.write(HEAD + MOTOR_MODEL + MOTOR.format(L='0.05'))
p = subprocess.run([exe, '--check', '--module', 'dc_motor', deck], capture_output=True, text=True)
ok = p.returncode == 0 and 'userdefined (dc motor): 1' in p.stdout
print(f"{'ok  ' if ok else 'FAIL'} --module dc_motor: exit {p.returncode}")
if not ok:
    print(p.stdout, p.stderr)
    failures.append('--module dc_motor')
finish()
