// Card readers for `beam3` (alias `beam`) and `beam2` (mbdyn-syntax.md 5.3).
//   beam3: L, n1, [position,] off1 [, {orientation|rot}, R1], n2, ... , n3, ...,
//          {<OrMat abs section I> | from nodes}, <6D CL I>,
//          {same | <OrMat section II> | from nodes}, {same | <6D CL II>}
//          [, custom output, <flags>...]
//   beam2: L, n1, ..., n2, ..., {<OrMat section> | from nodes}, <6D CL> [, custom output, ...]
// Section orientations are absolute (axis 1 = beam axis). `from nodes` interpolates the
// orientation from the node orientations (each times its relative `orientation`) as MBDyn does:
// with Cayley-Gibbs-Rodrigues parameters g (R = exp of g, g = 2 tan(theta/2) n) relative to
// node 2 (beam3) or node 2's frame (beam2), interpolated with the element's shape functions at
// the evaluation points: xi = -+1/sqrt(3) (beam3), the midpoint (beam2).
// Props: "node1", "offset1", "orientation1", ... (node frames); beam3: "section orientation I",
// "law I", "section orientation II", "law II" ("section I from nodes"/"section II from nodes"
// true when interpolated); beam2: "section orientation", "law" ("section from nodes");
// "custom output" (space-separated flags) and "custom output flags" (bits, see read_tail).
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
    if (r.peek("piezoelectric actuator"))
        r.error("piezoelectric actuator beams are not supported yet");
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
    read_tail(r, e, law_kind_bits(*law) & law_viscous);
}

}  // namespace

MBS_REGISTER_ELEMENT("beam3", "", read_beam3);
MBS_REGISTER_ELEMENT("beam", "", read_beam3);
MBS_REGISTER_ELEMENT("beam2", "", read_beam2);

}  // namespace mbs
