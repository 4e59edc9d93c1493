// Joints MBDyn reads that mbsolve does not run (docs/deck-language.md 5.2): each fails at its
// card with what to write instead, rather than with an "unknown joint type" guess.
//   plane displacement, plane displacement pin: MBDyn refuses them too (struct/joint.cc:
//     "unsupported; use an in plane and a revolute rotation"); the same advice here.
//   brake: a revolute hinge whose friction torque is scaled by a drive (MBDyn's brake.cc); it
//     needs MBDyn's friction models, which mbsolve does not have yet.
//   beam slider: a node sliding along a chain of beams (MBDyn's beamslider.cc); not yet.
#include "core/registry.hpp"

namespace mbs {
namespace {

void read_plane_displacement(Reader& r, EntityDesc& e) {
    r.error_at(e.loc, "'" + e.type + "' joints are not supported (MBDyn refuses them too)",
               "use an 'in plane' joint and a 'revolute rotation' between the same nodes");
}

void read_brake(Reader& r, EntityDesc& e) {
    r.error_at(e.loc, "'brake' joints are not supported yet (they need friction models)",
               "model the brake torque with a couple, or remove the card");
}

void read_beam_slider(Reader& r, EntityDesc& e) {
    r.error_at(e.loc, "'beam slider' joints are not supported yet",
               "remove the card; a slider on a straight beam can be an 'in line' joint");
}

}  // namespace

MBS_REGISTER_ELEMENT_KIND("joint", "plane displacement",
                          {.read = read_plane_displacement, .no_make = "refused by the reader"});
MBS_REGISTER_ELEMENT_KIND("joint", "plane displacement pin",
                          {.read = read_plane_displacement, .no_make = "refused by the reader"});
MBS_REGISTER_ELEMENT_KIND("joint", "brake",
                          {.read = read_brake, .no_make = "refused by the reader"});
MBS_REGISTER_ELEMENT_KIND("joint", "beam slider",
                          {.read = read_beam_slider, .no_make = "refused by the reader"});

}  // namespace mbs
