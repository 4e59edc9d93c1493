#!/usr/bin/env python3
"""Size limits of the source tree (docs/style.md): no file over 1,000 lines and no function over
150 lines in core/, parser/, elements/, solvers/, output/, mbsolve/ (tests excluded).

Functions are found by a brace scanner, not a C++ parser: comments, strings and character
literals are blanked, then a '{' whose preceding text ends in ')' (optionally followed by
const/noexcept/override/-> type/ a member-initialiser list) at namespace or class scope opens a
function body, which ends at the matching '}'. Lambdas and local classes count toward the
function that contains them.

Usage: check_sizes.py [--list N] [ROOT]   exit 1 and one line per violation when a limit is broken
"""
import re
import subprocess
import sys

DIRS = ["core", "parser", "elements", "solvers", "output", "mbsolve"]
MAX_FILE = 1000
MAX_FUNC = 150


def blank(text):
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('R"', i):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if m:
                end = ")" + m.group(1) + '"'
                j = text.find(end, i + m.end())
                j = n if j < 0 else j + len(end)
                out.append(re.sub(r"[^\n]", " ", text[i:j]))
                i = j
            else:
                out.append(c)
                i += 1
        elif c in "\"'":
            if c == "'" and i > 0 and (text[i - 1].isalnum()):  # digit separator 1'000
                out.append(c)
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * (j - i - 2) + c if j - i >= 2 else c)
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


HEAD_RE = re.compile(r"\)\s*(const|noexcept(\([^)]*\))?|override|final|mutable|&|&&|\s)*(->\s*[\w:<>,\s*&]+)?\s*$")


def functions(text):
    """Yield (name, first_line, last_line) of function bodies at namespace/class scope."""
    t = blank(text)
    stack = []  # entries: 'scope' or ('func', name, line)
    line = 1
    last_stmt = 0  # index after last ';' '{' '}' at this level
    for i, c in enumerate(t):
        if c == "\n":
            line += 1
        elif c == "{":
            in_func = any(isinstance(s, tuple) for s in stack)
            if in_func:
                stack.append("block")
            else:
                head = t[last_stmt:i]
                # strip a member-initialiser list: ') : a_(x), b_{y}' -> ')'
                h = re.sub(r"\)\s*:\s*[\w:]+\s*[({].*$", ")", head, flags=re.S)
                if HEAD_RE.search(h) and not re.search(r"\b(namespace|class|struct|enum|union)\b[^()]*$", h):
                    m = re.search(r"([~\w:]+(?:operator\s*[^\s(]+)?)\s*\(", h)
                    name = m.group(1) if m else "?"
                    stack.append(("func", name.strip(), line))
                else:
                    stack.append("scope")
            last_stmt = i + 1
        elif c == "}":
            if stack:
                s = stack.pop()
                if isinstance(s, tuple):
                    yield s[1], s[2], line
            last_stmt = i + 1
        elif c == ";":
            last_stmt = i + 1


def main(argv):
    listn = 0
    root = "."
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--list":
            listn = int(args.pop(0))
        else:
            root = a
    files = subprocess.run(["git", "-C", root, "ls-files", "--"] + DIRS, capture_output=True,
                           text=True, check=True).stdout.split()
    files = [f for f in files if re.search(r"\.(cpp|hpp|h)$", f) and "/test/" not in f
             and not f.startswith("fuzz/")]
    bad = []
    allf = []
    for f in files:
        text = open(f"{root}/{f}", encoding="utf-8", errors="replace").read()
        nlines = text.count("\n")
        if nlines > MAX_FILE:
            bad.append(f"{f}: {nlines} lines (limit {MAX_FILE})")
        for name, a, b in functions(text):
            allf.append((b - a + 1, f, a, name))
            if b - a + 1 > MAX_FUNC:
                bad.append(f"{f}:{a}: function {name}: {b - a + 1} lines (limit {MAX_FUNC})")
    if listn:
        for n, f, a, name in sorted(allf, reverse=True)[:listn]:
            print(f"{n:5d}  {f}:{a}  {name}")
        return 0
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
