// `file, drv_label [, column] [, amplitude, a]`: a column of a file driver from the `drivers`
// block (docs/deck-language.md section 7).
//
// Parameters: "drive label" (long) "column" (long >= 1, default 1) "amplitude" (default 1).
// As in MBDyn, any value right after the label is the column. Whether the driver exists and
// has that column is checked once the drivers block is read.
#include "core/registry.hpp"
#include "elements/drives/drive_util.hpp"

namespace mbs::drives {
namespace {

void read_file(Reader& r, DriveSpec& d) {
    d.params.set("drive label", r.label("file driver label"));
    long column = 1;
    if (!r.peek("amplitude") && next_is_value(r)) column = count_at_least(r, "column", 1);
    d.params.set("column", column);
    double amplitude = 1.0;
    if (r.accept("amplitude")) amplitude = r.real("amplitude");
    d.params.set("amplitude", amplitude);
}

}  // namespace

MBS_REGISTER_DRIVE("file", read_file);

}  // namespace mbs::drives
