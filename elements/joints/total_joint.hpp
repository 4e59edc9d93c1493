// The total joint family's typed spec (`total joint`, `total pin joint`, `drive hinge`, `drive
// displacement`, `drive displacement pin`; docs/deck-language.md 5.2), shared by their readers
// and runtime (total_joint_element.cpp), the card syntax of the total joints' sides and
// constraint blocks (total_joint_cards.cpp) and the relative-coordinate edge
// (total_tree_edge.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "core/model.hpp"
#include "core/reader.hpp"
#include "core/tree_edge.hpp"
#include "elements/joints/joint_ends.hpp"

namespace mbs::cards {

enum class TotalForm : std::uint8_t {
    total,
    total_pin,
    drive_hinge,
    drive_displacement,
    drive_displacement_pin
};

// How a component of the relative position or rotation is constrained: free (`inactive`),
// imposed at position level (`position`, `rotation`, `active`, true) or at velocity level
// (`velocity`, `angular velocity`).
enum class Level : std::uint8_t { inactive, position, velocity };

// End 1 (node 1, or the ground for the pins) carries the position frame position_frame[0] and
// the rotation frame end[0].R; end 2 (a node) the rotation frame end[1].R. For the pins end[0]
// has no node: its offset is the ground point and its frames are global; for the others the
// offsets and frames are in the node frames. position_frame[1] (the total joints' `position
// orientation` of end 2) is read and described but constrains nothing, as in MBDyn. The drive
// hinge's `orientation` frames are its rotation frames; the drive displacement's frames are the
// identity.
struct TotalSpec final : ElementSpec {
    TotalForm form = TotalForm::total;
    EndSpec end[2];
    Mat3 position_frame[2] = {Mat3::Identity(), Mat3::Identity()};
    std::array<Level, 3> pos{}, rot{};
    // The imposed relative position (frame of position_frame[0]) and rotation vector (frame of
    // end 1's rotation frame), then, in inverse dynamics, their first and second derivatives;
    // null when not given.
    std::shared_ptr<const TplDriveSpec> pos_drive[3], rot_drive[3];
    bool pin() const {
        return form == TotalForm::total_pin || form == TotalForm::drive_displacement_pin;
    }
    void describe(Props& p) const override;
    // One multiplier per constrained component (position or velocity level).
    long own_unknowns() const override {
        long n = 0;
        for (int i = 0; i < 3; ++i) n += (pos[i] != Level::inactive) + (rot[i] != Level::inactive);
        return n;
    }
};

// The sides and constraint blocks of `total joint` and `total pin joint` (total_joint_cards.cpp):
// the whole card after the element's label and type.
void read_total_joint_card(Reader& r, TotalSpec& s);
void read_total_pin_joint_card(Reader& r, TotalSpec& s);

// MBDyn's obsolete `imposed displacement`, `imposed displacement pin` and `imposed orientation`
// (total_joint_cards.cpp), read as the total (pin) joints MBDyn makes of them.
void read_imposed_displacement_card(Reader& r, TotalSpec& s);
void read_imposed_displacement_pin_card(Reader& r, TotalSpec& s);
void read_imposed_orientation_card(Reader& r, TotalSpec& s);

// The relative-coordinate edge (core/tree_edge.hpp) of a TotalSpec. Each component of the
// relative position and rotation is free, fixed or driven (position or velocity level); the tree
// gets one coordinate per free or driven component, a loop cut one row per imposed one.
tree::Edge total_tree_edge(const EntityDesc& d, const tree::Context& ctx);

}  // namespace mbs::cards
