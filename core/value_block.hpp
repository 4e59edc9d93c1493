// Value blocks: per-step values an analysis writes besides the nodes and the elements (the
// relative-coordinate path's actuator forces, loop multipliers and equilibrium coordinates),
// declared once before the run and handed to every sink through the StepView
// (core/step_view.hpp): the text sink writes their lines, NetCDF and HDF5 one group each
// (output/results.hpp, docs/hdf5-schema.md "Value blocks", docs/output.md 3.1).
#pragma once

#include <string>
#include <vector>

namespace mbs {

struct ValueBlock {
    // One value of a row, or a vector of them: the row's values are its quantities' components
    // one after the other. A row may hold fewer values than the widest (a cut's multipliers):
    // its last quantity is then shorter (NaN in HDF5; NetCDF's variable has the row's width).
    struct Quantity {
        std::string name;  // NetCDF <nc_prefix>.<label>.<name>, HDF5 /<group>/<name>
        int ncomp = 1;     // the widest row's components
        std::string units, description;
        std::string frame = "-";  // HDF5 `frame` attribute
    };
    // An entity: one text line per output step, "<text> v1 v2 ...<suffix>" (text: the label
    // when empty).
    struct Row {
        long label = 0;    // unique in the block: NetCDF's and HDF5's entity
        long joint = 0;    // the deck label of its joint (0: none, e.g. a free node)
        std::string name;  // HDF5 `names`
        std::string type;  // HDF5 `types`, NetCDF entity `type` attribute
        std::string text, suffix;
        int count = 0;  // values of the row
    };

    std::string file;       // text extension ("act", "lam", "eq"); blocks may share a file
    std::string header;     // text written once before the block's first line ('\n'-terminated)
    int precision = 0;      // significant digits in the text; 0: the deck's `output precision`
    std::string group;      // HDF5 group
    std::string nc_prefix;  // NetCDF variable prefix
    std::string dimension;  // HDF5 entity dimension (its coordinate holds the labels)
    std::vector<Quantity> quantities;
    std::vector<Row> rows;
    // The current values, rows' values one after the other (sum of Row::count). Sized once;
    // the analysis overwrites them before each step() of its sinks.
    std::vector<double> values;

    // The first value of each row in `values` (made by finish()).
    std::vector<int> first;
    // Sizes `values` and `first` from the rows (after the rows are declared).
    void finish() {
        first.clear();
        int n = 0;
        for (const Row& r : rows) {
            first.push_back(n);
            n += r.count;
        }
        values.assign(static_cast<std::size_t>(n), 0.0);
    }
};

}  // namespace mbs
