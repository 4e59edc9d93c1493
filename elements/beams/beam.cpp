// The parts of the `beam3` (alias `beam`) and `beam2` cards that both read (docs/deck-language.md
// 5.3): the beam nodes, the section orientations, the piezoelectric actuator and the custom
// output (beam.hpp). The card readers, with the card syntax and the spec they fill, are
// read_beam3 and read_beam2 in beam_element.cpp, next to the runtime beams.
//   <piezo> (MBDyn's piezoelectric actuator, ReadBeam/ReadBeam2):
//     piezoelectric actuator, N, <abstract node 1>, ..., <abstract node N>,
//       <Mat6xN section I> [beam3: , {same | <Mat6xN section II>}]
//     Mat6xN: null | [anba | matr,] 6 x N reals row by row [, scale, s]; `anba` gives each
//     triple of rows in ANBA's axes (x, y, z = section 2, section 3, beam axis 1).
// Typed spec: BeamSpec (beam.hpp), its generic view below: "node<k>", "offset<k>",
// "orientation<k>" (node frames); "custom output" (space-separated flags) and "custom output
// flags" (bits, see read_beam_tail); piezo: "piezo electrodes" (N), "electrode1" ...
// "electrodeN" (abstract node refs), "piezo matrix I" and "piezo matrix II" (beam3) or "piezo
// matrix" (beam2): 6 x N, row-major (VecN).
#include "elements/beams/beam.hpp"

#include <cmath>
#include <string>

#include "core/constitutive_law.hpp"
#include "core/registry.hpp"
#include "core/rotations.hpp"
#include "elements/misc/card_helpers.hpp"
#include "elements/nodes/scalar_node_spec.hpp"

namespace mbs {

void BeamSpec::describe(Props& p) const {
    for (std::size_t k = 0; k < nodes.size(); ++k) {
        const std::string s = std::to_string(k + 1);
        p.set("node" + s, nodes[k].node);
        p.set("offset" + s, nodes[k].offset);
        p.set("orientation" + s, nodes[k].R);
    }
    const int n = points();
    for (int i = 0; i < n; ++i) {
        const std::string s = n == 1 ? "" : i == 0 ? " I" : " II";
        p.set("section orientation" + s, section[i].R);
        if (section[i].from_nodes)
            p.set(n == 1 ? "section from nodes" : "section" + s + " from nodes", true);
        p.set("law" + s, section[i].law);
    }
    if (!electrodes.empty()) {
        p.set("piezo electrodes", static_cast<long>(electrodes.size()));
        for (std::size_t k = 0; k < electrodes.size(); ++k)
            p.set("electrode" + std::to_string(k + 1), electrodes[k]);
        for (int i = 0; i < n; ++i)
            p.set(n == 1   ? "piezo matrix"
                  : i == 0 ? "piezo matrix I"
                           : "piezo matrix II",
                  section[i].piezo);
    }
    if (!orientation_description.empty()) p.set("orientation description", orientation_description);
    if (custom_output) {
        p.set("custom output", custom_output_text);
        p.set("custom output flags", custom_output_flags);
    }
}

namespace cards {

BeamNode read_beam_node(Reader& r, BeamSpec& spec, int k, const char* element) {
    BeamNode b;
    std::string s = std::to_string(k);
    BeamSpec::Node n;
    n.node_loc = r.loc();
    b.node = &read_structural_node(r, "node " + s, element);
    r.accept("position");
    b.offset = r.position_rel(*b.node, "offset of node " + s);
    if (r.accept("orientation") || r.accept("rot"))
        b.R = r.orientation_rel(*b.node, "orientation of node " + s);
    n.node = node_ref(*b.node);
    n.offset = b.offset;
    n.R = b.R;
    spec.nodes.push_back(n);
    return b;
}

void check_beam_nodes_distinct(Reader& r, const std::string& element,
                               const std::vector<BeamNode>& nodes, const SourceLoc& at) {
    for (std::size_t i = 0; i < nodes.size(); ++i)
        for (std::size_t j = i + 1; j < nodes.size(); ++j)
            if (nodes[i].node->label == nodes[j].node->label)
                r.error_at(
                    at, element + " uses node " + std::to_string(nodes[i].node->label) + " twice",
                    "the nodes of a beam must be different");
}

Mat3 read_beam_section(Reader& r, bool& from_nodes, const std::string& what) {
    from_nodes = r.accept("from nodes") || r.accept("node");
    return from_nodes ? Mat3::Identity() : r.orientation_abs(what);
}

// `custom output` (MBDyn's ReadBeamCustomOutput): the flags select the evaluation-point
// quantities written besides the forces and moments; "none" clears the ones before it, a flag
// given twice (also through a group: "forces" after "force") is an error, and strain-rate flags
// of an elastic beam are ignored with a warning. A flag that selects the orientation may be
// followed by `orientation description, <desc>`. BeamSpec keeps the flags as written
// (space-separated) and as bits (beam_output_bits in beam.hpp; ep_f | ep_m, MBDyn's default,
// unless `none` was given: MBDyn then writes no NetCDF forces and moments; a beam without
// `custom output` means ep_default).
void read_beam_tail(Reader& r, BeamSpec& spec, bool viscous) {
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
        spec.orientation_description = od;
        spec.custom_output = true;
        spec.custom_output_text = flags;
        spec.custom_output_flags = cleared ? bits : bits | ep_default;
    }
}

// `piezoelectric actuator` (MBDyn's ReadBeam: the count, the electrodes' abstract nodes, then
// one Mat6xN per evaluation point, MBDyn's GetMat6xN). MBDyn reads the voltages from
// differential abstract nodes (an algebraic one fails its node cast): so do we. Each error
// names the part of the card at fault.
void read_beam_piezo(Reader& r, BeamSpec& spec, int points) {
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
        if (is_algebraic_abstract_node(*node))
            r.error_at(at, which + ": abstract node " + std::to_string(label) + " is algebraic",
                       "the voltages are read from differential abstract nodes, as in MBDyn: "
                       "drop 'algebraic' from the node's card");
        spec.electrodes.push_back(node_ref(*node));
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
        spec.section[0].piezo = matrix("piezoelectric matrix");
    } else {
        spec.section[0].piezo = matrix("piezoelectric matrix of section I");
        spec.section[1].piezo =
            r.accept("same") ? spec.section[0].piezo : matrix("piezoelectric matrix of section II");
    }
    // A longer matrix (or N smaller than the labels given) leaves values before the tail.
    if (!r.at_end() && !r.peek("custom output") && !r.peek("output"))
        r.error_at(r.loc(),
                   "extra value after the piezoelectric matrices (each has " + size + " values)",
                   form);
}

}  // namespace cards

}  // namespace mbs
