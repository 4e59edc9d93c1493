// Drive callers built from other drive callers: array, mult, drive, function, postponed
// (docs/deck-language.md section 7).
//
//   array      children = {dc1, ..., dcn} (n >= 1): the sum
//   mult       children = {dc1, dc2}: the product
//   drive      children = {outer, inner}: outer(inner(t)); inner's value is outer's input Var
//   function   an alias wrapper: the spec becomes the wrapped drive itself
//   postponed  "label": a `drive caller:` card that may be defined later in the deck
#include "core/registry.hpp"
#include "elements/drives/drive_util.hpp"

namespace mbs::drives {
namespace {

void read_array(Reader& r, DriveSpec& d) {
    long n = count_of_items(r, "number of drive callers", 1, 1);
    for (long i = 1; i <= n; ++i)
        d.children.push_back(r.drive("drive caller #" + std::to_string(i)));
}

void read_mult(Reader& r, DriveSpec& d) {
    d.children.push_back(r.drive("first factor"));
    d.children.push_back(r.drive("second factor"));
}

void read_drive(Reader& r, DriveSpec& d) {
    d.children.push_back(r.drive("outer drive caller"));
    d.children.push_back(r.drive("inner drive caller"));
}

// MBDyn's `function` returns the drive that follows unchanged; so does this reader.
void read_function(Reader& r, DriveSpec& d) { d = *r.drive("drive caller"); }

// The referenced card may come later, so its existence is checked when the model is complete.
void read_postponed(Reader& r, DriveSpec& d) {
    d.params.set("label", r.label("drive caller label"));
}

}  // namespace

MBS_REGISTER_DRIVE("array", read_array);
MBS_REGISTER_DRIVE("mult", read_mult);
MBS_REGISTER_DRIVE("drive", read_drive);
MBS_REGISTER_DRIVE("function", read_function);
MBS_REGISTER_DRIVE("postponed", read_postponed);

}  // namespace mbs::drives
