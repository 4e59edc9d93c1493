"""Writes a regression folder's mbdyn_reference.txt from an MBDyn run (used by the folders'
mbdyn_reference.py scripts, which only say which deck, lines and steps; none of this runs in the
test suite: the .txt files are committed).

The file: `# ` title lines, MBDyn's version, the sampling, then for every `every`-th output
step k <= `steps` of each listed label of each listed output file, `k ext <the line as MBDyn
writes it>`.
"""
import os
import subprocess
import sys
import tempfile


def write_reference(mbdyn, deck_text, name, title, files, every, steps, out_path):
    """Runs `mbdyn` on `deck_text` (written as <tmp>/<name>.mbd, run in <tmp>) and writes
    `out_path`. `title`: the header's first lines (without '# '); `files`: ((ext, labels), ...)."""
    version = subprocess.run([mbdyn, '-v'], capture_output=True, text=True).stdout.splitlines()
    out = ['# ' + t for t in title]
    out += ['# ' + ' '.join(v for v in version[:2] if v),
            f'# every {every}th output step: step, file, then the line as MBDyn writes it']
    with tempfile.TemporaryDirectory() as work:
        deck = os.path.join(work, name + '.mbd')
        with open(deck, 'w') as f:
            f.write(deck_text)
        subprocess.run([mbdyn, '-f', deck, '-o', os.path.join(work, name)],
                       check=True, capture_output=True, cwd=work)
        for ext, labels in files:
            seen = {lab: 0 for lab in labels}
            with open(os.path.join(work, name + '.' + ext)) as f:
                for line in f:
                    w = line.split()
                    lab = int(w[0])
                    if lab not in seen:
                        continue
                    k = seen[lab]
                    seen[lab] += 1
                    if k % every == 0 and k <= steps:
                        out.append(f'{k} {ext} ' + ' '.join(w))
    with open(out_path, 'w') as f:
        f.write('\n'.join(out) + '\n')


def example_reference(here, example, name, title, files, every, steps, edit=None):
    """The body of a folder's mbdyn_reference.py: runs the MBDyn given as sys.argv[1] on
    input-examples/<example>.mbd, changed by edit(text) -> text when given, and writes
    here/mbdyn_reference.txt (write_reference; `here`: the folder)."""
    with open(os.path.join(here, '..', '..', 'input-examples', example + '.mbd')) as f:
        text = f.read()
    if edit:
        text = edit(text)
    write_reference(sys.argv[1], text, name, title, files, every, steps,
                    os.path.join(here, 'mbdyn_reference.txt'))


def replace_once(text, old, new):
    """text with its one occurrence of old replaced by new (an edit of a deck for MBDyn: fails
    loudly when the deck no longer has old)."""
    if text.count(old) != 1:
        sys.exit(f'the deck has {text.count(old)} occurrences of {old!r}, expected 1')
    return text.replace(old, new)


def read_reference(path):
    """The samples of a file written by write_reference: {(ext, label): rows}, each row
    [step, the values MBDyn wrote after the label], in file order (a numpy array)."""
    import numpy as np
    ref = {}
    with open(path) as f:
        for line in f:
            if line.startswith('#'):
                continue
            w = line.split()
            ref.setdefault((w[1], int(w[2])), []).append([int(w[0])] + [float(v) for v in w[3:]])
    return {key: np.array(v) for key, v in ref.items()}
