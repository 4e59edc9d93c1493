// Joint ends: node, offset and hinge orientation groups (see joint_ends.hpp).
#include "elements/joints/joint_ends.hpp"

#include <string>
#include <utility>

#include "elements/misc/card_helpers.hpp"

namespace mbs::cards {

tree::End tree_end(const EntityDesc& e, const char* node, const char* offset,
                   const char* orientation) {
    tree::End end;
    end.node = e.props.get<EntityRef>(node);
    end.key = node;
    end.o = e.props.get_or<Vec3>(offset, Vec3::Zero());
    if (orientation) end.R = e.props.get_or<Mat3>(orientation, Mat3::Identity());
    return end;
}

namespace {

const EntityDesc& read_end_node(Reader& r, JointEnd& end, std::string_view what,
                                std::string_view element, const EndOptions& opt) {
    end.node_loc = r.loc();
    const EntityDesc& n = read_structural_node(r, what, element, opt.need_rotations);
    end.node = &n;
    return n;
}

bool offset_present(Reader& r, const EndOptions& opt) {
    switch (opt.offset) {
        case Offset::mandatory:
            r.accept("position");
            return true;
        case Offset::keyword:
            return r.accept("position");
        case Offset::none:
            return false;
    }
    return false;
}

}  // namespace

JointEnd read_end1(Reader& r, std::string_view element, const EndOptions& opt) {
    JointEnd end;
    const EntityDesc& n = read_end_node(r, end, "node 1", element, opt);
    if (offset_present(r, opt)) {
        if (!has_rotations(n))
            r.error("an offset needs a node with rotations, but node " + std::to_string(n.label) +
                    " is a '" + n.type + "' node");
        end.offset = r.position_rel(n, "offset of node 1");
        end.has_offset = true;
    }
    if (opt.orientation && accept_orientation_keyword(r)) {
        end.R = r.orientation_rel(n, "orientation of node 1");
        end.has_orientation = true;
    }
    return end;
}

JointEnd read_end2(Reader& r, const JointEnd& end1, std::string_view element,
                   const EndOptions& opt) {
    JointEnd end;
    const EntityDesc& n = read_end_node(r, end, "node 2", element, opt);
    check_distinct_nodes(r, end.node_loc, *end1.node, n, element);
    if (offset_present(r, opt)) {
        if (!has_rotations(n) || !has_rotations(*end1.node))
            r.error("offsets need nodes with rotations ('" + end1.node->type + "' and '" + n.type +
                    "' here)");
        end.offset = r.position_rel_other(n, *end1.node, end1.offset, "offset of node 2");
        end.has_offset = true;
    }
    if (opt.orientation && accept_orientation_keyword(r)) {
        end.R = r.orientation_rel_other(n, *end1.node, end1.R, "orientation of node 2");
        end.has_orientation = true;
    }
    return end;
}

void read_end_pair(Reader& r, EntityDesc& e, std::string_view element, bool offsets) {
    EndOptions opt;
    opt.offset = offsets ? Offset::mandatory : Offset::keyword;
    auto end1 = read_end1(r, element, opt);
    auto end2 = read_end2(r, end1, element, opt);
    store_end(e, end1, 1, offsets, true);
    store_end(e, end2, 2, offsets, true);
}

const EntityDesc& read_pin(Reader& r, EntityDesc& e, std::string_view element) {
    const EntityDesc& n = read_structural_node(r, "node", element);
    e.props.set("node", node_ref(n));
    r.accept("position");
    e.props.set("offset", r.position_rel(n, "offset"));
    Mat3 Rh = accept_orientation_keyword(r) ? r.orientation_rel(n, "hinge orientation")
                                            : Mat3::Identity();
    e.props.set("hinge orientation", Rh);
    r.accept("position");
    e.props.set("position", r.position_abs("pin position", &n));
    Mat3 R0 =
        accept_orientation_keyword(r) ? r.orientation_abs("pin orientation", &n) : Mat3::Identity();
    e.props.set("orientation", R0);
    return n;
}

void store_end(EntityDesc& e, const JointEnd& end, int k, bool offset, bool orientation) {
    std::string s = std::to_string(k);
    e.props.set("node" + s, node_ref(*end.node));
    if (offset) e.props.set("offset" + s, end.offset);
    if (orientation) e.props.set("orientation" + s, end.R);
}

void reject_friction(Reader& r) {
    if (r.peek("friction"))
        r.error("hinge friction is not supported yet", "remove the friction block");
}

tree::Edge revolute_tree_edge(tree::End a, tree::End b) {
    tree::Edge e;
    e.a = std::move(a);
    e.b = std::move(b);
    e.cut_cost = 5;
    e.tree_capable = true;
    e.grow = [](tree::Growth& g, const tree::Context&) {
        g.steps.push_back(tree::rotation(2, tree::angle_about_z(g.Rrel)));
    };
    e.cut = [](tree::CutEquations& c, bool, const tree::Context&) {
        c.kind = tree::CutKind::revolute, c.rows = 5;
    };
    return e;
}

void tree_linear_law(const EntityDesc& e, tree::LinkForce& f) {
    const auto& law = *e.props.get<std::shared_ptr<const LawSpec>>("law");
    if (law.type != "linearelastic" && law.type != "linearviscoelastic")
        tree::unsupported(e, "only linear elastic and linear viscoelastic laws (isotropic)");
    f.k = law.params.get<double>("stiffness");
    f.c = law.params.get_or<double>("damping", 0.0);
}

namespace {

// Joints with no adapter of their own: what the relative-coordinate path supports.
tree::EdgePart unsupported_joint(const EntityDesc& d, const tree::Context&) {
    tree::unsupported(d,
                      "supported joints: clamp, revolute hinge/pin, axial rotation, spherical "
                      "hinge/pin, cardano hinge, prismatic, in line, in plane, total (pin) "
                      "joint, drive hinge, drive displacement (pin) (tree or cut), distance "
                      "(cuts); rod and deformable hinge (forces)");
}

}  // namespace

MBS_REGISTER_TREE_EDGE("joint", "*", unsupported_joint);

}  // namespace mbs::cards
