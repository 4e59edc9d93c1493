// Card readers for `beam3` (alias `beam`) and `beam2` (docs/deck-language.md 5.3).
//   beam3: L, n1, [position,] off1 [, {orientation|rot}, R1], n2, ... , n3, ...,
//          {<OrMat abs section I> | from nodes}, <6D CL I>,
//          {same | <OrMat section II> | from nodes}, {same | <6D CL II>}
//          [, <piezo>] [, custom output, <flags>...]
//   beam2: L, n1, ..., n2, ..., {<OrMat section> | from nodes}, <6D CL> [, <piezo>]
//          [, custom output, ...]
//   <piezo> (MBDyn's piezoelectric actuator, ReadBeam/ReadBeam2):
//     piezoelectric actuator, N, <abstract node 1>, ..., <abstract node N>,
//       <Mat6xN section I> [beam3: , {same | <Mat6xN section II>}]
//     Mat6xN: null | [anba | matr,] 6 x N reals row by row [, scale, s]; `anba` gives each
//     triple of rows in ANBA's axes (x, y, z = section 2, section 3, beam axis 1).
// Section orientations are absolute (axis 1 = beam axis). `from nodes` interpolates the
// orientation from the node orientations (each times its relative `orientation`) as MBDyn does:
// with Cayley-Gibbs-Rodrigues parameters g (R = exp of g, g = 2 tan(theta/2) n) relative to
// node 2 (beam3) or node 2's frame (beam2), interpolated with the element's shape functions at
// the evaluation points: xi = -+1/sqrt(3) (beam3), the midpoint (beam2). That is all the relative
// orientations of the beam nodes are for, in MBDyn too: the runtime beam interpolates the nodes'
// rotations since the start, whatever their frames (beam_element.cpp).
// Props: "node1", "offset1", "orientation1", ... (node frames); beam3: "section orientation I",
// "law I", "section orientation II", "law II" ("section I from nodes"/"section II from nodes"
// true when interpolated); beam2: "section orientation", "law" ("section from nodes");
// "custom output" (space-separated flags) and "custom output flags" (bits, see read_tail);
// piezo: "piezo electrodes" (N), "electrode1" ... "electrodeN" (abstract node refs), "piezo
// matrix I" and "piezo matrix II" (beam3) or "piezo matrix" (beam2): 6 x N, row-major (VecN).
#include "elements/beams/beam.hpp"

#include <cmath>
#include <string>

#include "core/constitutive_law.hpp"
#include "core/registry.hpp"
#include "core/rotations.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

struct BeamNode {
    const EntityDesc* node = nullptr;
    Vec3 offset = Vec3::Zero();
    Mat3 R = Mat3::Identity();
};

BeamNode read_beam_node(Reader& r, EntityDesc& e, int k, const char* element) {
    BeamNode b;
    std::string s = std::to_string(k);
    b.node = &cards::read_structural_node(r, "node " + s, element);
    r.accept("position");
    b.offset = r.position_rel(*b.node, "offset of node " + s);
    if (r.accept("orientation") || r.accept("rot"))
        b.R = r.orientation_rel(*b.node, "orientation of node " + s);
    e.props.set("node" + s, cards::node_ref(*b.node));
    e.props.set("offset" + s, b.offset);
    e.props.set("orientation" + s, b.R);
    return b;
}

void check_nodes_distinct(Reader& r, EntityDesc& e, const std::vector<BeamNode>& nodes,
                          const SourceLoc& at) {
    for (std::size_t i = 0; i < nodes.size(); ++i)
        for (std::size_t j = i + 1; j < nodes.size(); ++j)
            if (nodes[i].node->label == nodes[j].node->label)
                r.error_at(
                    at,
                    e.category + " uses node " + std::to_string(nodes[i].node->label) + " twice",
                    "the nodes of a beam must be different");
}

// `from nodes` (or `node`) or an absolute orientation matrix; nullopt-like flag in `from_nodes`.
Mat3 read_section(Reader& r, bool& from_nodes, const std::string& what) {
    from_nodes = r.accept("from nodes") || r.accept("node");
    return from_nodes ? Mat3::Identity() : r.orientation_abs(what);
}

std::shared_ptr<const LawSpec> read_beam_law(Reader& r, const std::string& what) {
    return r.law(6, what);
}

// `custom output` (MBDyn's ReadBeamCustomOutput): the flags select the evaluation-point
// quantities written besides the forces and moments; "none" clears the ones before it, a flag
// given twice (also through a group: "forces" after "force") is an error, and strain-rate flags
// of an elastic beam are ignored with a warning. A flag that selects the orientation may be
// followed by `orientation description, <desc>` (prop "orientation description"). Props:
// "custom output" (the flags as written, space-separated) and "custom output flags" (bits,
// beam_output_bits in beam.hpp; ep_f | ep_m, MBDyn's default, unless `none` was given: MBDyn
// then writes no NetCDF forces and moments; a beam without `custom output` has no such prop and
// means ep_default).
void read_tail(Reader& r, EntityDesc& e, bool viscous) {
    if (r.accept("custom output")) {
        using namespace beam_output_bits;
        struct Flag {
            std::string_view name;
            long bits;
        };
        static const Flag table[] = {{"position", ep_x},
                                     {"orientation", ep_r},
                                     {"configuration", ep_x | ep_r},
                                     {"force", ep_f},
                                     {"moment", ep_m},
                                     {"forces", ep_f | ep_m},
                                     {"linear strain", ep_nu},
                                     {"angular strain", ep_k},
                                     {"strains", ep_nu | ep_k},
                                     {"linear strain rate", ep_nup},
                                     {"angular strain rate", ep_kp},
                                     {"strain rates", ep_nup | ep_kp},
                                     {"all", ep_all},
                                     {"none", 0}};
        static const std::initializer_list<std::string_view> names = {"position",
                                                                      "orientation",
                                                                      "configuration",
                                                                      "force",
                                                                      "moment",
                                                                      "forces",
                                                                      "linear strain",
                                                                      "angular strain",
                                                                      "strains",
                                                                      "linear strain rate",
                                                                      "angular strain rate",
                                                                      "strain rates",
                                                                      "all",
                                                                      "none"};
        std::string flags;
        long bits = 0;
        std::string od;        // orientation description ("": `default orientation`)
        bool cleared = false;  // `none` given: MBDyn's default (forces and moments) is cleared too
        while (!r.at_end() && !r.peek("output")) {
            const SourceLoc at = r.loc();
            std::string f = r.keyword(names, "beam custom output flag");
            long b = 0;
            for (const Flag& t : table)
                if (t.name == f) b = t.bits;
            if (bits & b)
                r.error_at(at, "duplicate beam custom output '" + f + "'",
                           "each quantity may be selected once");
            if ((b & (ep_nup | ep_kp)) && !viscous) {
                r.warn_at(at, "beam custom output '" + f +
                                  "': strain rates only for viscoelastic beams (ignored)");
                b &= ~(ep_nup | ep_kp);
            }
            if (f == "none") bits = 0, cleared = true;
            bits |= b;
            flags += (flags.empty() ? "" : " ") + f;
            // As MBDyn, after every flag that selects the orientation (`orientation`,
            // `configuration`, `all`): its NetCDF description, else `default orientation` (the
            // last such flag decides).
            if (b & ep_r)
                od = r.accept("orientation description")
                         ? r.keyword({"euler123", "euler313", "euler321", "orientation vector",
                                      "orientation matrix"},
                                     "orientation description")
                         : std::string();
        }
        if (!od.empty()) e.props.set("orientation description", od);
        e.props.set("custom output", flags);
        e.props.set("custom output flags", cleared ? bits : bits | ep_default);
    }
}

// `piezoelectric actuator` (MBDyn's ReadBeam: the count, the electrodes' abstract nodes, then
// one Mat6xN per evaluation point, MBDyn's GetMat6xN). MBDyn reads the voltages from
// differential abstract nodes (an algebraic one fails its node cast): so do we. Each error
// names the part of the card at fault.
void read_piezo(Reader& r, EntityDesc& e, int points) {
    if (!r.accept("piezoelectric actuator")) return;
    const std::string form =
        "piezoelectric actuator, <number of electrodes N>, <N abstract node labels>, " +
        std::string(points == 2 ? "<6 x N matrix of section I>, {same | <6 x N matrix of section "
                                  "II>}"
                                : "<6 x N matrix>");
    const SourceLoc at_n = r.loc();
    const long n = r.integer("number of electrodes");
    if (n < 1) r.error_at(at_n, "a piezoelectric actuator needs at least one electrode", form);
    // Each electrode takes at least one argument (its label): bounds N before anything is sized.
    if (static_cast<std::size_t>(n) > r.remaining())
        r.error_at(at_n,
                   std::to_string(n) + " electrodes, but the card has only " +
                       std::to_string(r.remaining()) + " arguments left",
                   form);
    e.props.set("piezo electrodes", n);
    // The reader's own errors (a label or a number expected) get the card's form as hint.
    auto with_hint = [&](auto read) {
        try {
            return read();
        } catch (const InputError& x) {
            throw InputError(x.loc(), x.message(), x.hint().empty() ? form : x.hint());
        }
    };
    for (long k = 1; k <= n; ++k) {
        const SourceLoc at = r.loc();
        const std::string which = "electrode " + std::to_string(k) + " of " + std::to_string(n);
        if (r.at_end())
            r.error_at(at, "the card ends before " + which + " (an abstract node label)", form);
        const long label = with_hint([&] { return r.label("abstract node label of " + which); });
        const EntityDesc* node = r.model().find_node("abstract", label);
        if (!node) {
            std::string other;
            for (const EntityDesc& d : r.model().nodes)
                if (d.label == label && other.empty()) other = d.category;
            r.error_at(
                at,
                which + ": " +
                    (other.empty()
                         ? "unknown label " + std::to_string(label) + " for abstract node"
                         : other + " node " + std::to_string(label) + " is not an abstract node"),
                "the electrode voltages are abstract nodes ('abstract: L;' in the nodes "
                "block), usually driven by a 'genel: ..., clamp, L, abstract, ...'; "
                "check N (" +
                    std::to_string(n) + ") against the labels that follow it");
        }
        if (node->props.get_or<std::string>("kind", "") == "algebraic")
            r.error_at(at, which + ": abstract node " + std::to_string(label) + " is algebraic",
                       "the voltages are read from differential abstract nodes, as in MBDyn: "
                       "drop 'algebraic' from the node's card");
        e.props.set("electrode" + std::to_string(k), cards::node_ref(*node));
    }
    const std::size_t cols = static_cast<std::size_t>(n);
    const std::string size = "6 x " + std::to_string(n) + " = " + std::to_string(6 * n);
    auto matrix = [&](const std::string& what) {
        VecN m(6 * cols, 0.0);
        if (r.accept("null")) return m;
        int row_of[3] = {0, 1, 2};
        if (r.accept("anba")) {
            row_of[0] = 1, row_of[1] = 2, row_of[2] = 0;
        } else {
            r.accept("matr");
        }
        for (std::size_t i = 0; i < 6; ++i)
            for (std::size_t j = 0; j < cols; ++j) {
                const std::size_t got = i * cols + j;
                if (r.at_end() || r.peek("same") || r.peek("scale") || r.peek("custom output") ||
                    r.peek("output"))
                    r.error_at(r.loc(),
                               what + " has " + std::to_string(got) + " values, it needs " + size,
                               "one row of N = " + std::to_string(n) +
                                   " values per generalized force (3 forces, 3 moments), one "
                                   "column per electrode");
                const std::size_t row = (i / 3) * 3 + row_of[i % 3];
                m[row * cols + j] = with_hint([&] {
                    return r.real(what + " (row " + std::to_string(i + 1) + ", column " +
                                  std::to_string(j + 1) + ")");
                });
            }
        if (r.accept("scale")) {
            const double s = r.real("scale of " + what);
            for (double& v : m) v *= s;
        }
        return m;
    };
    if (points == 1) {
        e.props.set("piezo matrix", matrix("piezoelectric matrix"));
    } else {
        VecN m1 = matrix("piezoelectric matrix of section I");
        VecN m2 = r.accept("same") ? m1 : matrix("piezoelectric matrix of section II");
        e.props.set("piezo matrix I", m1);
        e.props.set("piezo matrix II", m2);
    }
    // A longer matrix (or N smaller than the labels given) leaves values before the tail.
    if (!r.at_end() && !r.peek("custom output") && !r.peek("output"))
        r.error_at(r.loc(),
                   "extra value after the piezoelectric matrices (each has " + size + " values)",
                   form);
}

void read_beam3(Reader& r, EntityDesc& e) {
    SourceLoc at = r.loc();
    std::vector<BeamNode> n;
    for (int k = 1; k <= 3; ++k) n.push_back(read_beam_node(r, e, k, "beam3"));
    check_nodes_distinct(r, e, n, at);

    bool from_I = false, from_II = false;
    Mat3 R_I = read_section(r, from_I, "section orientation I");
    auto law_I = read_beam_law(r, "constitutive law of section I");
    Mat3 R_II;
    if (r.accept("same")) {
        from_II = from_I;
        R_II = R_I;
    } else {
        R_II = read_section(r, from_II, "section orientation II");
    }
    auto law_II = r.accept("same") ? law_I : read_beam_law(r, "constitutive law of section II");

    if (from_I || from_II) {
        // Relative to node 2's frame: g1, 0, g3 interpolated with the 3-node shape functions.
        Mat3 R2 = cards::node_orientation(*n[1].node) * n[1].R;
        Vec3 g1 = matrix_to_cgr(R2.transpose() * cards::node_orientation(*n[0].node) * n[0].R);
        Vec3 g3 = matrix_to_cgr(R2.transpose() * cards::node_orientation(*n[2].node) * n[2].R);
        auto interp = [&](double xi) {
            Vec3 g = 0.5 * xi * (xi - 1.0) * g1 + 0.5 * xi * (xi + 1.0) * g3;
            return Mat3(R2 * cgr_to_matrix(g));
        };
        const double xi = 1.0 / std::sqrt(3.0);
        if (from_I) R_I = interp(-xi);
        if (from_II) R_II = interp(xi);
    }
    e.props.set("section orientation I", R_I);
    if (from_I) e.props.set("section I from nodes", true);
    e.props.set("law I", law_I);
    e.props.set("section orientation II", R_II);
    if (from_II) e.props.set("section II from nodes", true);
    e.props.set("law II", law_II);
    read_piezo(r, e, 2);
    read_tail(r, e, (law_kind_bits(*law_I) | law_kind_bits(*law_II)) & law_viscous);
}

void read_beam2(Reader& r, EntityDesc& e) {
    SourceLoc at = r.loc();
    std::vector<BeamNode> n;
    for (int k = 1; k <= 2; ++k) n.push_back(read_beam_node(r, e, k, "beam2"));
    check_nodes_distinct(r, e, n, at);
    bool from = false;
    Mat3 R = read_section(r, from, "section orientation");
    if (from) {
        // Midpoint: R = R2 exp(g/2), g the parameters of node 1 relative to node 2.
        Mat3 R2 = cards::node_orientation(*n[1].node) * n[1].R;
        Vec3 g = matrix_to_cgr(R2.transpose() * cards::node_orientation(*n[0].node) * n[0].R);
        R = R2 * cgr_to_matrix(0.5 * g);
    }
    e.props.set("section orientation", R);
    if (from) e.props.set("section from nodes", true);
    auto law = read_beam_law(r, "constitutive law");
    e.props.set("law", law);
    read_piezo(r, e, 1);
    read_tail(r, e, law_kind_bits(*law) & law_viscous);
}

}  // namespace

MBS_REGISTER_ELEMENT("beam3", "", read_beam3);
MBS_REGISTER_ELEMENT("beam", "", read_beam3);
MBS_REGISTER_ELEMENT("beam2", "", read_beam2);

}  // namespace mbs
