// PREFIX.log in MBDyn's format (see model_log.hpp). Node lines are written here; an element's
// line is its own log_line() (core/element.hpp), written beside its reader and runtime in the
// kind's file with core/log_line.hpp in the field order of MBDyn's reader (struct/joint.cc,
// struct/body.cc, struct/strforce.cc, ...); elements MBDyn writes no line for get mbsolve's
// "<category>: <label> <type>".
#include "output/model_log.hpp"

#include <Eigen/Geometry>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "core/log_line.hpp"
#include "core/rotations.hpp"

namespace mbs::output {

namespace {

using Line = LogLine;

// Initial (deck) position and orientation of a node.
void node_pose(const StructNode& n, Vec3& x, Mat3& R) {
    x = n.desc().view().get_or<Vec3>("position", n.x);
    R = n.desc().view().get_or<Mat3>("orientation", n.R);
}

}  // namespace

std::string node_log_line(const StructNode& n, const std::string& default_orientation) {
    Vec3 x;
    Mat3 R;
    node_pose(n, x, R);
    Line l;
    // MBDyn names the dummy nodes of type `relative frame` apart (DummyStructNode's reader).
    const bool relative_frame =
        n.is_dummy() && n.desc().view().get_or<std::string>("dummy type", "") == "relative frame";
    l.word(relative_frame ? "relative frame structural node:" : "structural node:");
    l.label(n.label()).vec(x);
    // Displacement-only nodes: no orientation, MBDyn's line ends with the blank too.
    if (!n.has_rotation() && !n.is_dummy()) return l.s + " ";
    const std::string& od =
        n.orientation_description.empty() ? default_orientation : n.orientation_description;
    if (od == "orientation matrix") return l.word("mat").mat(R).s;
    if (od == "orientation vector") return l.word("phi").vec(matrix_to_rotation_vector(R)).s;
    const double deg = 180.0 / M_PI;
    if (od == "euler313") return l.word("euler313").vec(matrix_to_euler313(R) * deg).s;
    if (od == "euler321") return l.word("euler321").vec(matrix_to_euler321(R) * deg).s;
    return l.word("euler123").vec(matrix_to_euler123(R) * deg).s;
}

std::string element_log_line(const Element& el) {
    if (std::string line = el.log_line(); !line.empty()) return line;
    const EntityDesc& d = el.desc();
    // No MBDyn line (drives, genels, gravity, total forces, ...): mbsolve's.
    return d.category + ": " + std::to_string(d.label) + (d.type.empty() ? "" : " ") + d.type;
}

void write_model_log(std::FILE* f, const Model& m, const StepView& view) {
    std::fprintf(f, "output frequency: %ld\n", m.control.output_frequency.value_or(1));
    const std::string od = m.control.orientation();
    for (const StructNode& n : view.nodes) std::fprintf(f, "%s\n", node_log_line(n, od).c_str());
    for (const auto& el : view.elements) {
        // Automatic structural elements (their node has its line); drive caller output (MBDyn
        // writes no line for drive callers).
        if (el->desc().category == "structural" || el->desc().category == "drive caller") continue;
        std::fprintf(f, "%s\n", element_log_line(*el).c_str());
    }
}

}  // namespace mbs::output
