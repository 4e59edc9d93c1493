// MBDyn's hints of `driven` elements (`driven: L, <drive>, hint, "offset{1}", ..., <element>;`):
// when the element is switched on (its drive becomes non-zero), it re-defines part of its
// geometry from the nodes' configuration at that instant, so that the constraint holds there
// instead of pulling the nodes back to the geometry of the card. MBDyn does it in
// DrivenElem::AfterPredict -> Elem::SetValue(hints), i.e. with the predicted configuration of the
// first step at which the drive is non-zero; hints are not applied at the initial time.
//
// The hints (MBDyn's Joint::ParseHint and its overrides; which element takes which is the
// element's choice, Hintable::takes_hint):
//   offset{k}              end k's offset: its point moves onto the other end's point
//                          (f_k = R_k^T (p_other - x_k); a ground end's point is absolute)
//   hinge{k}               end k's hinge frame: aligned with the other end's
//                          (R_kh = R_k^T R_other R_other,h)
//   position-hinge{k}      the same for the position frame of a total joint
//   orientation-hinge{k}   the same for the rotation frame of a total joint
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "elements/misc/element_util.hpp"

namespace mbs::el {

enum class Hint {
    offset1,
    offset2,
    hinge1,
    hinge2,
    position_hinge1,
    position_hinge2,
    orientation_hinge1,
    orientation_hinge2
};

// The hint written `text` (MBDyn's spelling, case-insensitive, e.g. "offset{1}"); nullopt if
// it is not one of the above.
std::optional<Hint> parse_hint(std::string_view text);
const char* hint_name(Hint h);

// Elements that honour hints. apply_hint runs once, at the switch-on, with the nodes in their
// current configuration; t is the time of that step (drives of the element at t).
class Hintable {
  public:
    virtual ~Hintable() = default;
    virtual bool takes_hint(Hint h) const = 0;
    virtual void apply_hint(Hint h, double t) = 0;
};

// End e's offset such that its point is p (global); its hinge frame such that its frame is R.
inline void set_end_point(End& e, const Vec3& p) {
    e.f = e.node ? Vec3(e.node->R.transpose() * (p - e.node->x)) : p;
}
inline void set_end_frame(End& e, const Mat3& R) {
    e.Rh = e.node ? Mat3(e.node->R.transpose() * R) : R;
}

// The hints of a two-ended joint whose ends carry the offsets and hinge frames (End::f, End::Rh):
// offset{1|2} and hinge{1|2}.
inline bool end_pair_takes(Hint h) {
    return h == Hint::offset1 || h == Hint::offset2 || h == Hint::hinge1 || h == Hint::hinge2;
}
inline void apply_end_pair_hint(End* e, Hint h) {
    switch (h) {
        case Hint::offset1:
            set_end_point(e[0], e[1].point());
            break;
        case Hint::offset2:
            set_end_point(e[1], e[0].point());
            break;
        case Hint::hinge1:
            set_end_frame(e[0], e[1].frame());
            break;
        case Hint::hinge2:
            set_end_frame(e[1], e[0].frame());
            break;
        default:
            break;
    }
}

}  // namespace mbs::el
