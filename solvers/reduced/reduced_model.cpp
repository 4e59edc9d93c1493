// Tree extraction: from the Model's joint graph to links, cuts, driven variables, bodies and
// forces. Every element is seen through its kind's adapter (core/tree_edge.hpp): this file knows
// no element type.
#include "solvers/reduced/reduced_model.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "core/rotations.hpp"
#include "core/source.hpp"

namespace mbs::reduced {
namespace {

using tree::unsupported;

// One end of a joint: a node (index into the node list) or the ground (-1) with a frame given in
// the node frame (node end) or in the world (ground end).
struct End {
    int node = -1;
    Vec3 o = Vec3::Zero();
    Mat3 R = Mat3::Identity();
};

// A joint of the deck with its two ends and what its adapter says it can become.
struct Edge {
    const EntityDesc* desc = nullptr;
    End a, b;  // node1 side, node2 side (pins: node side, ground side)
    tree::Edge spec;
    bool in_tree = false;
};

struct NodeInit {
    long label;
    Vec3 x, v, w;
    Mat3 R;
};

class TreeBuilder {
  public:
    TreeBuilder(const Model& model, const SimClock* clock)
        : model_(model), ctx_{env_, clock ? clock->time : 0.0} {
        env_.clock = clock;
        env_.model = &model;
    }

    ReducedModel build() {
        read_nodes();
        read_elements();
        spanning_tree();
        place_nodes();
        check_driven_cuts();
        add_cuts();
        add_loads();
        combine_bodies(rm_);
        rm_.qd0.assign(rm_.q0.size(), 0.0);
        return std::move(rm_);
    }

  private:
    void read_nodes();
    void read_elements();
    void spanning_tree();
    void place_nodes();
    void check_driven_cuts();
    void add_cuts();
    void add_loads();
    void add_load(const EntityDesc& d, tree::LoadPart part);

    int node_of(const EntityDesc& d, const EntityRef& ref, const std::string& key) {
        auto it = node_index_.find(ref.label);
        if (ref.category != "structural" || it == node_index_.end())
            unsupported(d, "its " + key + " is not a structural node");
        return it->second;
    }
    End end_of(const EntityDesc& d, const tree::End& te) {
        End e;
        if (te.node) e.node = node_of(d, *te.node, te.key);
        e.o = te.o;
        e.R = te.R;
        return e;
    }
    // World pose of an end's frame at the initial configuration.
    void end_pose(const End& e, Vec3& p, Mat3& R) const {
        if (e.node < 0) {
            p = e.o;
            R = e.R;
            return;
        }
        const NodeInit& ni = init_[static_cast<std::size_t>(e.node)];
        p = ni.x + ni.R * e.o;
        R = ni.R * e.R;
    }
    // An end's link and its frame in the link frame.
    void link_end(const End& e, int& link, Vec3& p, Mat3& R) const {
        if (e.node < 0) {
            link = -1;
            p = e.o;
            R = e.R;
            return;
        }
        const NodeAttach& na = rm_.nodes[static_cast<std::size_t>(e.node)];
        link = na.link;
        p = na.r + na.R * e.o;
        R = na.R * e.R;
    }
    int add_link(Link l) {
        rm_.links.push_back(std::move(l));
        return static_cast<int>(rm_.links.size()) - 1;
    }
    bool placed(const End& e) const {
        return e.node < 0 || rm_.nodes[static_cast<std::size_t>(e.node)].link != -2;
    }
    void emit(const Edge& e, const End& parent, const End& child,
              const std::vector<tree::Step>& steps);
    void grow(Edge& e, const End& parent, const End& child, double sign);
    void free_joint(int k);
    void expand();

    const Model& model_;
    DriveEnv env_;
    tree::Context ctx_;
    ReducedModel rm_;
    std::vector<NodeInit> init_;
    std::map<long, int> node_index_;
    std::vector<Edge> edges_;
    std::vector<const EntityDesc*> forces_;  // bodies, gravity, loads, link forces
};

void TreeBuilder::read_nodes() {
    for (const EntityDesc& n : model_.nodes) {
        const tree::Adapter* ad = tree::find_adapter(n.category, n.type);
        if (!ad || !ad->node) unsupported(n, "only structural nodes have a place in the tree");
        const tree::Node s = ad->node(n);
        node_index_[n.label] = static_cast<int>(init_.size());
        init_.push_back({n.label, s.x, s.v, s.w, s.R});
        NodeAttach na;
        na.label = n.label;
        na.orientation_description = s.orientation_description;
        na.output = n.output;
        na.v0 = s.v;
        na.w0 = s.w;
        na.link = -2;  // not placed yet
        rm_.nodes.push_back(na);
    }
}

// Joints -> edges; clamps put nodes on the ground; the rest waits for the tree (add_loads).
void TreeBuilder::read_elements() {
    for (const EntityDesc& d : model_.elements) {
        const tree::Adapter* ad = tree::find_adapter(d.category, d.type);
        if (!ad || (!ad->edge && !ad->load))
            unsupported(d, "elements of this category have no reduced form");
        if (!ad->edge) {
            forces_.push_back(&d);
            continue;
        }
        tree::EdgePart part = ad->edge(d, ctx_);
        if (const auto* c = std::get_if<tree::Clamp>(&part)) {
            int k = node_of(d, *c->node.node, c->node.key);
            NodeAttach& na = rm_.nodes[static_cast<std::size_t>(k)];
            na.link = -1;
            na.r = c->position.value_or(init_[static_cast<std::size_t>(k)].x);
            na.R = c->orientation.value_or(init_[static_cast<std::size_t>(k)].R);
            continue;
        }
        Edge e;
        e.desc = &d;
        e.spec = std::move(std::get<tree::Edge>(part));
        e.a = end_of(d, e.spec.a);
        e.b = end_of(d, e.spec.b);
        edges_.push_back(std::move(e));
    }
}

// Spanning tree (Kruskal): the tree keeps the joints that would cost the most cut equations;
// vertices: 0 = ground, k + 1 = node k (clamped nodes are the ground).
void TreeBuilder::spanning_tree() {
    const int nn = static_cast<int>(init_.size());
    std::vector<int> uf(static_cast<std::size_t>(nn + 1));
    std::iota(uf.begin(), uf.end(), 0);
    auto find = [&](int v) {
        while (uf[static_cast<std::size_t>(v)] != v)
            v = uf[static_cast<std::size_t>(v)] =
                uf[static_cast<std::size_t>(uf[static_cast<std::size_t>(v)])];
        return v;
    };
    auto vertex = [&](const End& e) {
        if (e.node < 0) return 0;
        return rm_.nodes[static_cast<std::size_t>(e.node)].link == -1 ? 0 : e.node + 1;
    };
    auto cost = [](const Edge& e) { return e.spec.driven ? 1000 : e.spec.cut_cost; };
    std::vector<std::size_t> order(edges_.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
        return cost(edges_[i]) > cost(edges_[j]);
    });
    for (std::size_t i : order) {
        Edge& e = edges_[i];
        if (!e.spec.tree_capable) continue;
        int ra = find(vertex(e.a)), rb = find(vertex(e.b));
        if (ra == rb) continue;
        uf[static_cast<std::size_t>(ra)] = rb;
        e.in_tree = true;
    }
}

// Emits the links of a joint sequence from the `parent` end (already placed) to the `child` end:
// constant transforms accumulate (in the parent link's frame first) until a step with a
// coordinate makes a link; what is left after the last one, with the child end's frame, is that
// link's post transform (or, with no coordinate at all, the child node's place on the parent
// link).
void TreeBuilder::emit(const Edge& e, const End& parent, const End& child,
                       const std::vector<tree::Step>& steps) {
    int pl = -1;
    Vec3 r = parent.o;
    Mat3 R = parent.R;
    if (parent.node >= 0) {
        const NodeAttach& pa = rm_.nodes[static_cast<std::size_t>(parent.node)];
        pl = pa.link;
        r = pa.r + pa.R * parent.o;
        R = pa.R * parent.R;
    }
    NodeAttach& ca = rm_.nodes[static_cast<std::size_t>(child.node)];
    int last = -1;
    for (const tree::Step& st : steps) {
        r += R * st.r;
        R = R * st.R;
        const Vec3 ax = Vec3::Unit(st.axis);
        if (st.fixed) {
            if (st.kind == Axis::revolute)
                R = R * Eigen::AngleAxisd(st.q0, ax).toRotationMatrix();
            else
                r += R * ax * st.q0;
            continue;
        }
        Link l;
        l.parent = pl;
        l.kind = st.kind;
        l.axis = ax;
        l.r_pre = r;
        l.R_pre = R;
        l.joint_label = e.desc->label;
        l.joint_type = e.desc->type;
        l.name = std::string(st.kind == Axis::revolute ? "R" : "T") + "xyz"[st.axis];
        if (st.velocity_drive || st.position_drive) {
            l.driven = true;
            l.velocity_drive = st.velocity_drive;
            l.position_drive = st.position_drive;
            l.drive_sign = st.sign;
        }
        pl = last = add_link(l);
        rm_.q0.push_back(st.q0);
        r.setZero();
        R.setIdentity();
    }
    const Mat3 Rc = R * child.R.transpose();
    const Vec3 rc = r - Rc * child.o;
    if (last >= 0) {
        Link& l = rm_.links[static_cast<std::size_t>(last)];
        l.R_post = Rc;
        l.r_post = rc;
        l.node_label = ca.label;
        ca.r.setZero();
        ca.R.setIdentity();
    } else {
        ca.r = rc;
        ca.R = Rc;
    }
    ca.link = pl;
}

// The tree grows from `parent` to `child`; sign = -1 when that is from the joint's node 2 to its
// node 1 (coordinates then measure the motion the other way). The edge gives the motions.
void TreeBuilder::grow(Edge& e, const End& parent, const End& child, double sign) {
    tree::Growth g;
    end_pose(parent, g.pp, g.Rp);
    end_pose(child, g.pc, g.Rc);
    g.Rrel = g.Rp.transpose() * g.Rc;
    g.d0 = g.Rp.transpose() * (g.pc - g.pp);
    g.sign = sign;
    g.parent_R = parent.R;
    g.child_R = child.R;
    e.spec.grow(g, ctx_);
    End par = parent, ch = child;
    par.R = g.parent_R;
    ch.R = g.child_R;
    emit(e, par, ch, g.steps);
}

// A node with no tree joint to the ground: a free joint, 3 translations along the world axes and
// 3 revolutes about the axes of its initial frame (angles 0 at the start).
void TreeBuilder::free_joint(int k) {
    NodeAttach& na = rm_.nodes[static_cast<std::size_t>(k)];
    const NodeInit& ni = init_[static_cast<std::size_t>(k)];
    int parent = -1;
    const char* names[6] = {"Tx", "Ty", "Tz", "Rx", "Ry", "Rz"};
    for (int j = 0; j < 6; ++j) {
        Link l;
        l.parent = parent;
        l.kind = j < 3 ? Axis::prismatic : Axis::revolute;
        l.axis = Vec3::Unit(j % 3);
        if (j == 0) l.r_pre = ni.x;
        if (j == 3) l.R_pre = ni.R;
        l.joint_type = "free node";
        l.name = names[j];
        if (j == 5) l.node_label = na.label;
        parent = add_link(l);
        rm_.q0.push_back(0.0);
    }
    na.link = parent;
    na.r.setZero();
    na.R.setIdentity();
}

void TreeBuilder::expand() {
    bool grew = true;
    while (grew) {
        grew = false;
        for (Edge& e : edges_) {
            if (!e.in_tree) continue;
            bool pa = placed(e.a), pb = placed(e.b);
            if (pa == pb) continue;
            if (pb)
                grow(e, e.b, e.a, -1.0);
            else
                grow(e, e.a, e.b, 1.0);
            grew = true;
        }
    }
}

// Breadth-first over the tree edges from the ground, then from each still unplaced node (given a
// free joint) in deck order.
void TreeBuilder::place_nodes() {
    expand();
    for (int k = 0; k < static_cast<int>(init_.size()); ++k) {
        if (rm_.nodes[static_cast<std::size_t>(k)].link != -2) continue;
        free_joint(k);
        expand();
    }
}

// Driven joints are preferred in the tree; one that closes a loop becomes a driven cut when its
// drives act at position level on position components (h(q, t) = h0(q) - f(t)).
void TreeBuilder::check_driven_cuts() {
    for (const Edge& e : edges_) {
        if (!e.spec.driven || e.in_tree) continue;
        if (!e.spec.driven_cut_ok)
            unsupported(*e.desc,
                        "a driven joint that closes a loop is a cut only with position-level "
                        "drives of its position components (a driven rotation or a velocity-level "
                        "drive has to be a tree joint: choose another joint of the loop as the "
                        "cut)");
    }
}

// Cuts: every joint not in the tree, and the tree joints that keep cut rows.
void TreeBuilder::add_cuts() {
    for (const Edge& e : edges_) {
        if (e.in_tree && !e.spec.cut_in_tree) continue;
        Cut c;
        c.label = e.desc->label;
        c.type = e.desc->type;
        link_end(e.a, c.link_a, c.p_a, c.R_a);
        link_end(e.b, c.link_b, c.p_b, c.R_b);
        e.spec.cut(c, e.in_tree, ctx_);
        if (c.link_a == c.link_b)
            unsupported(
                *e.desc,
                "both ends are on the same rigid part of the tree (a joint between ground nodes?)");
        c.first_row = rm_.n_constraints;
        rm_.n_constraints += c.rows;
        rm_.cuts.push_back(c);
    }
}

// Bodies, gravity, loads, link forces.
void TreeBuilder::add_loads() {
    for (const EntityDesc* dp : forces_) {
        const tree::Adapter* ad = tree::find_adapter(dp->category, dp->type);
        add_load(*dp, ad->load(*dp, ctx_));
    }
}

void TreeBuilder::add_load(const EntityDesc& d, tree::LoadPart part) {
    auto place = [&](const tree::End& te, int& link, Vec3& r, Mat3& R) {
        const NodeAttach& na = rm_.nodes[static_cast<std::size_t>(node_of(d, *te.node, te.key))];
        link = na.link;
        r = na.r;
        R = na.R;
    };
    int link;
    Vec3 r;
    Mat3 R;
    if (auto* b = std::get_if<tree::Body>(&part)) {
        place(b->node, link, r, R);
        if (link < 0) return;  // a body on the ground does not move
        ReducedModel::BodyPart bp;
        bp.label = d.label;
        bp.link = link;
        bp.mass = b->mass;
        bp.com = r + R * b->com;
        bp.inertia = R * b->inertia * R.transpose();
        rm_.bodies.push_back(bp);
    } else if (auto* g = std::get_if<tree::Gravity>(&part)) {
        rm_.has_gravity = true;
        rm_.gravity = TplDrive<3>::make(*g->acceleration, env_);
    } else if (auto* f = std::get_if<tree::Load>(&part)) {
        Load ld;
        ld.label = d.label;
        place(f->node, link, r, R);
        ld.link = link;
        ld.R_node = R;
        ld.point = r + R * f->node.o;
        ld.kind = f->couple ? (f->follower ? LoadKind::couple_follower : LoadKind::couple_absolute)
                            : (f->follower ? LoadKind::force_follower : LoadKind::force_absolute);
        ld.value = TplDrive<3>::make(*f->value, env_);
        if (link >= 0) rm_.loads.push_back(std::move(ld));
    } else {
        const auto& s = std::get<tree::LinkForce>(part);
        LinkForce lf;
        lf.label = d.label;
        Vec3 r2;
        Mat3 R2;
        place(s.a, lf.link_a, r, R);
        place(s.b, lf.link_b, r2, R2);
        lf.p_a = r + R * s.a.o;
        lf.p_b = r2 + R2 * s.b.o;
        if (!s.hinge) {
            lf.kind = LinkForceKind::rod;
            lf.l0 = s.l0;
            lf.ea = s.k;
            lf.ed = s.c;
        } else {
            lf.kind = LinkForceKind::deformable_hinge;
            lf.R_a = R * s.a.R;
            lf.R_b = R2 * s.b.R;
            lf.K = s.k * Mat3::Identity();
            lf.D = s.c * Mat3::Identity();
        }
        rm_.link_forces.push_back(lf);
    }
}

}  // namespace

ReducedModel build_reduced_model(const Model& model, const SimClock* clock) {
    return TreeBuilder(model, clock).build();
}

// Body by body onto its link: total mass, common centre of mass, inertia about it (each body's
// own inertia plus m (|d|^2 1 - d d^T) for its offset d from the common centre).
void combine_bodies(ReducedModel& rm) {
    for (Link& l : rm.links) {
        l.mass = 0.0;
        l.com.setZero();
        l.inertia.setZero();
    }
    for (const ReducedModel::BodyPart& b : rm.bodies) {
        Link& l = rm.links[static_cast<std::size_t>(b.link)];
        const double mt = l.mass + b.mass;
        const Vec3 ct = mt > 0 ? Vec3((l.mass * l.com + b.mass * b.com) / mt) : Vec3::Zero();
        auto shift = [&](double mm, const Vec3& cc) {
            const Vec3 dd = cc - ct;
            return Mat3(mm * (dd.squaredNorm() * Mat3::Identity() - dd * dd.transpose()));
        };
        l.inertia = l.inertia + shift(l.mass, l.com) + b.inertia + shift(b.mass, b.com);
        l.mass = mt;
        l.com = ct;
    }
}

}  // namespace mbs::reduced
