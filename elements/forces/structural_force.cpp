// Card readers for structural forces and couples (docs/deck-language.md 5.4).
//   force:  L, {absolute|follower}, node, position, <Vec3 rel arm>, <TplDC Vec3>
//   force:  L, absolute displacement, node, <TplDC Vec3>
//   force:  L, {absolute|follower} internal, n1, position, arm1, n2, position, arm2, <TplDC Vec3>
//   force:  L, absolute internal displacement, n1, n2, <TplDC Vec3>
//   couple: L, {absolute|follower}, node [, position, arm (unused)], <TplDC Vec3>
//   couple: L, {absolute|follower} internal, n1 [, position, a1], n2 [, position, a2], <TplDC>
// `conservative [internal]` is a deprecated alias of `absolute [internal]`. Absolute vectors are
// global (GetVecAbs: `reference, node` means the node frame); follower vectors are in the node
// frame (GetVecRel). Only `single, reference, <frame>, v, <dc>` takes a frame. Follower forces
// accept `output relative` after the drive. The legacy force form without `position`
// (`node, <dir>, <arm>, <DriveCaller>`) is accepted with a warning.
// Props: "node", "offset" (arm, node frame; forces only), "force" | "moment" (template drive),
// "output relative"; internal: "node1", "offset1", "node2", "offset2", ...
#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

struct Kind {
    bool couple = false;
    bool follower = false;
    bool internal = false;
    bool displacement = false;
};

const char* card_name(const Kind& k) { return k.couple ? "couple" : "force"; }

void read_structural(Reader& r, EntityDesc& e, const Kind& k) {
    std::string what = std::string(k.follower ? "follower " : "absolute ") +
                       (k.internal ? "internal " : "") + card_name(k);
    const EntityDesc& n1 =
        cards::read_structural_node(r, k.internal ? "node 1" : "node", what, !k.displacement);
    e.props.set(k.internal ? "node1" : "node", cards::node_ref(n1));
    // The frame the vector is resolved to: global for absolute, the node-1 frame for follower.
    Mat3 R1 = cards::node_orientation(n1);
    const Mat3* R_frame = k.follower ? &R1 : nullptr;

    Vec3 arm1 = Vec3::Zero();
    bool legacy = false;
    Vec3 legacy_dir = Vec3::Zero();
    SourceLoc at_dir;
    if (!k.displacement) {
        if (r.accept("position")) {
            arm1 = r.position_rel(n1, "arm");
            if (!k.couple) e.props.set(k.internal ? "offset1" : "offset", arm1);
        } else if (!k.couple) {
            r.warn(
                "'position' expected before the force arm; reading the deprecated form "
                "'<direction>, <arm>, <drive>'");
            legacy = true;
            at_dir = r.loc();
            legacy_dir = k.follower ? r.direction_rel(n1, "force direction")
                                    : r.direction_abs(&n1, "force direction");
            if (!(legacy_dir.norm() > 0.0))
                r.error_at(at_dir, "the force direction is a null vector");
            legacy_dir.normalize();
            arm1 = r.position_rel(n1, "arm");
            e.props.set(k.internal ? "offset1" : "offset", arm1);
        }
    }

    if (k.internal) {
        SourceLoc at2 = r.loc();
        const EntityDesc& n2 = cards::read_structural_node(r, "node 2", what, !k.displacement);
        if (n2.label == n1.label)
            r.error_at(at2, "internal " + std::string(card_name(k)) + " between node " +
                                std::to_string(n1.label) + " and itself");
        e.props.set("node2", cards::node_ref(n2));
        if (!k.displacement) {
            bool pos = r.accept("position");
            if (pos || legacy) {
                Vec3 arm2 = r.position_rel_other(n2, n1, arm1, "arm of node 2");
                if (!k.couple) e.props.set("offset2", arm2);
            } else if (!k.couple) {
                r.error("missing 'position, <arm>' of node 2");
            }
        }
    }

    const char* key = k.couple ? "moment" : "force";
    if (legacy) {
        SourceLoc at = r.loc();
        e.props.set(key, cards::make_single_tpl_vec3(legacy_dir, r.drive("force magnitude"), at));
    } else {
        e.props.set(key, cards::read_tpl_vec3(r, key, &n1, R_frame));
    }
    if (k.follower && r.accept("output relative")) e.props.set("output relative", true);
}

template <bool couple, bool follower, bool internal, bool displacement, bool deprecated = false>
void read_kind(Reader& r, EntityDesc& e) {
    if (deprecated) r.warn("'conservative' is deprecated; use 'absolute'");
    read_structural(r, e, Kind{couple, follower, internal, displacement});
}

// Relative-coordinate path: absolute and follower forces and couples on one node.
template <bool couple, bool follower>
tree::LoadPart tree_load(const EntityDesc& d, const tree::Context&) {
    tree::Load ld;
    ld.node.node = d.props.get<EntityRef>("node");
    ld.node.key = "node";
    ld.node.o = d.props.get_or<Vec3>("offset", Vec3::Zero());
    ld.couple = couple;
    ld.follower = follower;
    ld.value = d.props.get<std::shared_ptr<const TplDriveSpec>>(couple ? "moment" : "force");
    return ld;
}

tree::LoadPart unsupported_load(const EntityDesc& d, const tree::Context&) {
    tree::unsupported(d, "only absolute and follower forces and couples on one node");
}

}  // namespace

MBS_REGISTER_ELEMENT("force", "absolute", (read_kind<false, false, false, false>));
MBS_REGISTER_ELEMENT("force", "conservative", (read_kind<false, false, false, false, true>));
MBS_REGISTER_ELEMENT("force", "follower", (read_kind<false, true, false, false>));
MBS_REGISTER_ELEMENT("force", "absolute displacement", (read_kind<false, false, false, true>));
MBS_REGISTER_ELEMENT("force", "absolute internal", (read_kind<false, false, true, false>));
MBS_REGISTER_ELEMENT("force", "conservative internal",
                     (read_kind<false, false, true, false, true>));
MBS_REGISTER_ELEMENT("force", "follower internal", (read_kind<false, true, true, false>));
MBS_REGISTER_ELEMENT("force", "absolute internal displacement",
                     (read_kind<false, false, true, true>));

MBS_REGISTER_ELEMENT("couple", "absolute", (read_kind<true, false, false, false>));
MBS_REGISTER_ELEMENT("couple", "conservative", (read_kind<true, false, false, false, true>));
MBS_REGISTER_ELEMENT("couple", "follower", (read_kind<true, true, false, false>));
MBS_REGISTER_ELEMENT("couple", "absolute internal", (read_kind<true, false, true, false>));
MBS_REGISTER_ELEMENT("couple", "conservative internal",
                     (read_kind<true, false, true, false, true>));
MBS_REGISTER_ELEMENT("couple", "follower internal", (read_kind<true, true, true, false>));

MBS_REGISTER_TREE_LOAD("force", "absolute", (tree_load<false, false>));
MBS_REGISTER_TREE_LOAD("force", "follower", (tree_load<false, true>));
MBS_REGISTER_TREE_LOAD("couple", "absolute", (tree_load<true, false>));
MBS_REGISTER_TREE_LOAD("couple", "follower", (tree_load<true, true>));
MBS_REGISTER_TREE_LOAD("force", "*", unsupported_load);
MBS_REGISTER_TREE_LOAD("couple", "*", unsupported_load);
}  // namespace mbs
