// Joint ends: node, offset and hinge orientation groups (see joint_ends.hpp).
#include "elements/joints/joint_ends.hpp"

#include <string>
#include <utility>

#include "core/log_line.hpp"
#include "core/registry.hpp"
#include "elements/laws/linear_laws.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs::cards {

EndSpec end_spec(const JointEnd& e) {
    EndSpec s;
    s.node = node_ref(*e.node);
    s.offset = e.offset;
    s.R = e.R;
    s.node_loc = e.node_loc;
    s.offset_loc = e.has_offset ? e.offset_loc : e.node_loc;
    s.orientation_loc = e.has_orientation ? e.orientation_loc : e.node_loc;
    return s;
}

void describe_end(Props& p, const EndSpec& e, const std::string& k, bool offset, bool orientation) {
    p.set("node" + k, e.node);
    if (offset) p.set("offset" + k, e.offset);
    if (orientation) p.set("orientation" + k, e.R);
}

std::string log_two_ends(std::string_view name, long label, const EndSpec (&end)[2], bool offsets,
                         bool orientations) {
    LogLine l;
    l.word(std::string(name) + ":").label(label);
    for (const EndSpec& e : end) {
        l.label(e.node.label).vec(offsets ? e.offset : Vec3(Vec3::Zero()));
        if (orientations) l.mat(e.R);
    }
    return l.s;
}

tree::End tree_end(const EndSpec& e, const char* key) {
    tree::End end;
    end.node = e.node;
    end.key = key;
    end.o = e.offset;
    end.R = e.R;
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
        end.offset_loc = r.loc();
        end.offset = r.position_rel(n, "offset of node 1");
        end.has_offset = true;
    }
    if (opt.orientation && accept_orientation_keyword(r)) {
        end.orientation_loc = r.loc();
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
        end.offset_loc = r.loc();
        end.offset = r.position_rel_other(n, *end1.node, end1.offset, "offset of node 2");
        end.has_offset = true;
    }
    if (opt.orientation && accept_orientation_keyword(r)) {
        end.orientation_loc = r.loc();
        end.R = r.orientation_rel_other(n, *end1.node, end1.R, "orientation of node 2");
        end.has_orientation = true;
    }
    return end;
}

PinGround read_pin_ground(Reader& r, std::string_view element) {
    PinGround g;
    g.node.node_loc = r.loc();
    const EntityDesc& n = read_structural_node(r, "node", element);
    g.node.node = node_ref(n);
    r.accept("position");
    g.node.offset_loc = r.loc();
    g.node.offset = r.position_rel(n, "offset");
    g.node.orientation_loc = r.loc();
    if (accept_orientation_keyword(r)) {
        g.node.orientation_loc = r.loc();
        g.node.R = r.orientation_rel(n, "hinge orientation");
    }
    r.accept("position");
    g.position = r.position_abs("pin position", &n);
    if (accept_orientation_keyword(r)) g.orientation = r.orientation_abs("pin orientation", &n);
    return g;
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

void tree_linear_law(const EntityDesc& e, const LawSpec& law, tree::LinkForce& f) {
    if (law.type != "linearelastic" && law.type != "linearviscoelastic")
        tree::unsupported(e, "only linear elastic and linear viscoelastic laws (isotropic)");
    // Isotropic: LinearArgs holds doubles (a linear viscoelastic law has both, possibly 0).
    const auto& a = law.args_as<laws::LinearArgs>();
    f.k = a.stiffness.value;
    f.c = a.damping.value;
}

namespace {

// Joints with no adapter of their own: the hint lists the joint kinds that have one, from the
// registry (a kind registered with `.reduced = {.edge = ...}` or `{.load = ...}` is listed
// without an edit here).
tree::EdgePart unsupported_joint(const EntityDesc& d, const tree::Context&) {
    std::string edges, loads;
    if (const auto it = Registry::instance().elements.find("joint");
        it != Registry::instance().elements.end())
        for (const std::string& name : it->second.names()) {
            const ElementKind* k = it->second.find(name);
            std::string& list = k->reduced.edge ? edges : loads;
            if (!k->reduced.edge && !k->reduced.load) continue;
            list += (list.empty() ? "" : ", ") + name;
        }
    tree::unsupported(d, "supported joints: " + edges + "; as forces: " + loads);
}

}  // namespace

MBS_REGISTER_TREE_EDGE("joint", "*", unsupported_joint);

}  // namespace mbs::cards
