"""Runs one regression check and removes its outputs when it passes.

Called by regression/CMakeLists.txt as
    /usr/bin/python3 run_check.py <folder>/check.py <mbsolve executable> <scratch directory>
in the check's folder. The scratch directory is emptied before the check (no stale file from an
earlier run can pass for a new one) and again after it passes: the default suite's outputs came
to over 5 GB (a few hundred MB per long run), more than a CI machine may have free, and a run
that meets a full disk fails in whatever test is writing at that moment. A failed check keeps
its files for inspection, and its output ends with the free disk space.
"""
import os
import shutil
import subprocess
import sys


def empty(work):
    for name in os.listdir(work):
        p = os.path.join(work, name)
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p, ignore_errors=True)
        else:
            try:
                os.remove(p)
            except FileNotFoundError:
                pass


def main():
    check, exe, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    empty(work)
    rc = subprocess.call([sys.executable, check, exe, work, *sys.argv[4:]])
    if rc == 0:
        empty(work)
    else:
        st = shutil.disk_usage(work)
        print(f'run_check: {check} failed (exit {rc}); its files are kept in {work}; '
              f'disk: {st.free / 2**30:.2f} GiB free of {st.total / 2**30:.1f} GiB')
    sys.exit(rc)


if __name__ == '__main__':
    main()
