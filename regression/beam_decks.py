"""Pieces shared by the beam deck generators (regression/beam_*/gen_decks.py): the `data`,
`initial value` and `control data` blocks, the nodes and beam3 cards of a straight cantilever
along x, the section laws, and writing a deck.

Usage from regression/<name>/gen_decks.py:
    import sys, os; sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
    import beam_decks as bd
"""

# Values of a static run's pseudo-time (the load factor, 0 .. 1) for solver().
PSEUDO_TIME = ('1.', 'pseudo-time: the load factor')
LOAD_STEP_METHOD = ('ms, 0.6', "only predicts the next load step's configuration")


def setting(key, value, comment=None, column=36):
    """`    key: value;`, followed by `# comment` from `column` (0-based) when comment is given."""
    line = f'    {key}: {value};'
    return line if comment is None else line.ljust(column) + '# ' + comment


def _setting(key, value):
    return setting(key, *value) if isinstance(value, tuple) else setting(key, value)


def solver(final_time, time_step, tolerance, max_iterations, extra=(), method='ms, 0.6'):
    """The `data` block (an initial value problem) and the `initial value` block (from t = 0,
    KLU), without a final newline. Each value is a string or a tuple (value, comment[, column])
    for setting(); extra: what follows `linear solver`, (key, value[, comment]) tuples or lines
    written as they are."""
    o = ['begin: data;', '    problem: initial value;', 'end: data;', '',
         'begin: initial value;', '    initial time: 0.;',
         _setting('final time', final_time), _setting('time step', time_step),
         _setting('method', method), _setting('tolerance', tolerance),
         _setting('max iterations', max_iterations), '    linear solver: klu;']
    o += [e if isinstance(e, str) else setting(*e) for e in extra]
    o.append('end: initial value;')
    return '\n'.join(o)


def control_data(*entries):
    """The `control data` block with the given entries ('beams: 10', ...) and output precision
    16, without a final newline."""
    return '\n'.join(['begin: control data;', *(f'    {e};' for e in entries),
                      '    output precision: 16;', 'end: control data;'])


def law(bend2='EI', bend3=None, beta=None):
    """A diagonal section law on EA, GA (both shear directions), GJ and the bending stiffnesses
    bend2, bend3 (default bend2): linear elastic, or viscoelastic with C = beta K."""
    stiff = f'diag, EA, GA, GA, GJ, {bend2}, {bend3 or bend2}'
    if beta is None:
        return f'linear elastic generic, {stiff}'
    return f'linear viscoelastic generic, {stiff}, proportional, {beta}'


def cantilever_nodes(nn, kind='static'):
    """Node cards 0 .. nn-1 at x = k H, identity frames, at rest."""
    return [f'    structural: {k}, {kind}, {k}*H, 0., 0., eye, null, null;' for k in range(nn)]


def beam3_card(e, law_text, end=';'):
    """The first two lines of beam3 card e + 1 on nodes 2e, 2e+1, 2e+2 (no offsets, section
    frame eye, the same law at both points), ending with `end`."""
    return [f'    beam3: {e + 1}, {2 * e}, null, {2 * e + 1}, null, {2 * e + 2}, null,',
            f'        eye, {law_text}, same, same{end}']


def write(path, lines):
    """Writes the deck's lines, each ended by a newline."""
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
