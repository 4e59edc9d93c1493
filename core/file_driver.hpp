// File drivers (docs/deck-language.md, "File drivers"): the `drivers` block's
//
//   file: L, fixed step, <steps> | count, <channels>, initial time, <t0> | from file,
//         time step, <dt> | from file [, interpolation, linear | const]
//         [, pad zeros, yes | no | bailout, none], "<file>";
//   file: L, variable step, <channels> [, interpolation, ...] [, pad zeros, ...], "<file>";
//
// as MBDyn reads them (mbdyn/base/fixedstep.cc, varstep.cc). The data file is read once when the
// deck is built; the `file` drive caller then samples one channel at the current time with no file
// I/O and no allocation (FileDriver::value).
//
// Data file: leading lines that start with '#' are comments; among them a fixed-step file gives
// `# initial time: <t0>` and `# time step: <dt>` when the card says `from file`. Each later line
// holds one sample: <channels> numbers (fixed step) or the time and then <channels> numbers
// (variable step, times strictly increasing). Blank lines and further '#' lines are skipped.
//
// Value at time t, channel c (MBDyn's ServePending):
//   fixed step:    before t0 or after t0 + (n - 1) dt: 0 with `pad zeros, yes` (the default), else
//                  the first / last sample; in between, linear interpolation between the samples
//                  around t (`interpolation, const`: the sample at or before t).
//   variable step: the same with the first column as the times, except that MBDyn pads at the
//                  first and last sample times too (t <= t_1 or t >= t_n gives 0 with pad zeros).
#pragma once

#include <string>
#include <vector>

#include "core/source.hpp"

namespace mbs {

class Reader;

// What a `file:` card says, before its data file is read (read_file_driver_card).
struct FileDriverCard {
    long label = 0;
    SourceLoc loc;  // the card
    bool variable_step = false;
    long steps = -1;  // fixed step: number of samples; -1 for `count` (counted in the file)
    long channels = 0;
    bool t0_from_file = false, dt_from_file = false;  // fixed step: `from file`
    double t0 = 0.0, dt = 0.0;
    bool linear = true;
    bool pad_zeros = true;
    std::string file_name;  // as written, environment variables expanded by the caller
    SourceLoc file_loc;     // the file name's argument
};

// Reads the arguments of `file: L, ...` after the label; `socket`, `stream`, `rtai input`,
// `buffer stream` and the bailout options other than `none` are refused at their location.
FileDriverCard read_file_driver_card(Reader& r, long label, const SourceLoc& card);

// A file driver's samples, read once when the deck is built.
struct FileDriver {
    long label = 0;
    SourceLoc loc;
    std::string path;  // the data file read (resolved)
    bool variable_step = false;
    bool linear = true;
    bool pad_zeros = true;
    long channels = 0;
    long steps = 0;              // samples
    double t0 = 0.0, dt = 0.0;   // fixed step
    std::vector<double> times;   // variable step: the first column, strictly increasing
    std::vector<double> values;  // values[(c - 1) * steps + j]: channel c of sample j

    // Channel c (1 <= c <= channels) at time t, as described above. `hint` is the caller's
    // moving index into `times` (variable step), kept between calls; any value is valid.
    double value(long c, double t, long& hint) const;
};

// Reads the samples of `data` (the file named by `card`). Bad data is an InputError at its line
// and column in `data`, naming the card's location in the hint.
FileDriver parse_file_driver(const FileDriverCard& card, const SourceFile& data);

}  // namespace mbs
