// Tree extraction: from the Model's joint graph to links, cuts, driven variables, bodies and
// forces.
#include "solvers/reduced/reduced_model.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "core/rotations.hpp"
#include "core/source.hpp"

namespace mbs::reduced {
namespace {

// One end of a joint: a node (index into the node list) or the ground (-1) with a frame given in
// the node frame (node end) or in the world (ground end).
struct End {
    int node = -1;
    Vec3 o = Vec3::Zero();
    Mat3 R = Mat3::Identity();
};

enum class JointRole { tree_revolute, tree_spherical, cut_only, link_force, clamp, ignored };

// A joint of the deck with its two ends and what it can become.
struct Edge {
    const EntityDesc* desc = nullptr;
    End a, b;      // node1 side, node2 side (pins: node side, ground side)
    int cut_cost;  // equations it would give as a cut (tree joints: the larger, the more it is
                   // kept)
    bool tree_capable = false;
    bool driven = false;
    bool in_tree = false;
};

struct NodeInit {
    long label;
    Vec3 x, v, w;
    Mat3 R;
};

[[noreturn]] void unsupported(const EntityDesc& d, const std::string& why) {
    throw InputError(d.loc,
                     d.category + " " + std::to_string(d.label) + " (" + d.type +
                         "): not supported by the relative-coordinate path",
                     why);
}

double angle_about_z(const Mat3& R) { return std::atan2(R(1, 0), R(0, 0)); }

}  // namespace

ReducedModel build_reduced_model(const Model& model, const SimClock* clock) {
    ReducedModel rm;
    DriveEnv env;
    env.clock = clock;
    env.model = &model;

    std::vector<NodeInit> init;
    std::map<long, int> node_index;
    for (const EntityDesc& n : model.nodes) {
        if (n.category != "structural")
            unsupported(n, "only structural nodes have a place in the tree");
        if (n.type != "static" && n.type != "dynamic")
            unsupported(n, "the tree is made of static and dynamic structural nodes");
        node_index[n.label] = static_cast<int>(init.size());
        init.push_back({n.label, n.props.get_or<Vec3>("position", Vec3::Zero()),
                        n.props.get_or<Vec3>("velocity", Vec3::Zero()),
                        n.props.get_or<Vec3>("angular velocity", Vec3::Zero()),
                        n.props.get_or<Mat3>("orientation", Mat3::Identity())});
        NodeAttach na;
        na.label = n.label;
        na.orientation_description = n.props.get_or<std::string>("orientation description", "");
        na.output = n.output;
        na.link = -2;  // not placed yet
        rm.nodes.push_back(na);
    }
    const int nn = static_cast<int>(init.size());
    auto node_of = [&](const EntityDesc& d, const char* key) {
        const auto& ref = d.props.get<EntityRef>(key);
        auto it = node_index.find(ref.label);
        if (ref.category != "structural" || it == node_index.end())
            unsupported(d, std::string("its ") + key + " is not a structural node");
        return it->second;
    };
    auto node_end = [&](const EntityDesc& d, const char* node, const char* off, const char* ori) {
        End e;
        e.node = node_of(d, node);
        e.o = d.props.get_or<Vec3>(off, Vec3::Zero());
        if (ori) e.R = d.props.get_or<Mat3>(ori, Mat3::Identity());
        return e;
    };

    // Joints -> edges; clamps put nodes on the ground.
    std::vector<Edge> edges;
    std::vector<const EntityDesc*> forces;
    for (const EntityDesc& d : model.elements) {
        if (d.category == "body" || d.category == "gravity" || d.category == "force" ||
            d.category == "couple") {
            forces.push_back(&d);
            continue;
        }
        if (d.category != "joint") unsupported(d, "elements of this category have no reduced form");
        const std::string& t = d.type;
        Edge e;
        e.desc = &d;
        if (t == "clamp") {
            int k = node_of(d, "node");
            NodeAttach& na = rm.nodes[static_cast<std::size_t>(k)];
            na.link = -1;
            na.r = d.props.get_or<Vec3>("position", init[static_cast<std::size_t>(k)].x);
            na.R = d.props.get_or<Mat3>("orientation", init[static_cast<std::size_t>(k)].R);
            continue;
        }
        if (t == "revolute hinge" || t == "axial rotation") {
            e.a = node_end(d, "node1", "offset1", "orientation1");
            e.b = node_end(d, "node2", "offset2", "orientation2");
            e.cut_cost = 5;
            e.tree_capable = true;
            if (t == "axial rotation") {
                e.driven = true;
                e.cut_cost = 1000;  // a driven joint must be a tree joint
            }
        } else if (t == "revolute pin") {
            e.a = node_end(d, "node", "offset", "hinge orientation");
            e.b.o = d.props.get<Vec3>("position");
            e.b.R = d.props.get_or<Mat3>("orientation", Mat3::Identity());
            e.cut_cost = 5;
            e.tree_capable = true;
        } else if (t == "cardano hinge") {
            e.a = node_end(d, "node1", "offset1", "orientation1");
            e.b = node_end(d, "node2", "offset2", "orientation2");
            e.cut_cost = 4;
            e.tree_capable = true;
        } else if (t == "prismatic") {
            e.a = node_end(d, "node1", "offset1", "orientation1");
            e.b = node_end(d, "node2", "offset2", "orientation2");
            e.a.o.setZero();  // no position constraint: the frames sit at the nodes
            e.b.o.setZero();
            e.cut_cost = 3;
            e.tree_capable = true;
        } else if (t == "spherical hinge") {
            e.a = node_end(d, "node1", "offset1", "orientation1");
            e.b = node_end(d, "node2", "offset2", "orientation2");
            e.cut_cost = 3;
            e.tree_capable = true;
        } else if (t == "spherical pin") {
            e.a = node_end(d, "node", "offset", nullptr);
            e.b.o = d.props.get<Vec3>("position");
            e.cut_cost = 3;
            e.tree_capable = true;
        } else if (t == "in line") {
            e.a = node_end(d, "node1", "offset1", "orientation1");
            e.b = node_end(d, "node2", "offset2", nullptr);
            e.cut_cost = 2;
        } else if (t == "in plane") {
            e.a = node_end(d, "node1", "offset1", nullptr);
            Vec3 n = d.props.get<Vec3>("normal").normalized();
            // A frame whose axis 3 is the normal.
            Vec3 t1 = std::abs(n.x()) < 0.9 ? Vec3(n.cross(Vec3::UnitX()).normalized())
                                            : Vec3(n.cross(Vec3::UnitY()).normalized());
            e.a.R.col(0) = t1;
            e.a.R.col(1) = n.cross(t1);
            e.a.R.col(2) = n;
            e.b = node_end(d, "node2", "offset2", nullptr);
            e.cut_cost = 1;
        } else if (t == "distance") {
            if (!d.props.has("length"))
                unsupported(d, "only a constant length (not a driven distance) is a rod cut");
            e.a = node_end(d, "node1", "offset1", nullptr);
            e.b = node_end(d, "node2", "offset2", nullptr);
            e.cut_cost = 1;
        } else if (t == "rod" || t == "deformable hinge") {
            forces.push_back(&d);
            continue;
        } else {
            unsupported(d,
                        "supported joints: clamp, revolute hinge/pin, axial rotation, spherical "
                        "hinge/pin, cardano hinge, prismatic (tree or cut), in line, in plane, "
                        "distance (cuts); rod and deformable hinge (forces)");
        }
        edges.push_back(e);
    }

    // Spanning tree (Kruskal): the tree keeps the joints that would cost the most cut equations;
    // vertices: 0 = ground, k + 1 = node k (clamped nodes are the ground).
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
        return rm.nodes[static_cast<std::size_t>(e.node)].link == -1 ? 0 : e.node + 1;
    };
    std::vector<std::size_t> order(edges.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
        return edges[i].cut_cost > edges[j].cut_cost;
    });
    for (std::size_t i : order) {
        Edge& e = edges[i];
        if (!e.tree_capable) continue;
        int ra = find(vertex(e.a)), rb = find(vertex(e.b));
        if (ra == rb) continue;
        uf[static_cast<std::size_t>(ra)] = rb;
        e.in_tree = true;
    }

    // World pose of an end's frame at the initial configuration.
    auto end_pose = [&](const End& e, Vec3& p, Mat3& R) {
        if (e.node < 0) {
            p = e.o;
            R = e.R;
            return;
        }
        const NodeInit& ni = init[static_cast<std::size_t>(e.node)];
        p = ni.x + ni.R * e.o;
        R = ni.R * e.R;
    };
    auto add_link = [&](Link l) {
        rm.links.push_back(std::move(l));
        return static_cast<int>(rm.links.size()) - 1;
    };
    // Attach the node of the child end to the last link of a new joint sequence from `parent`
    // (already placed) to `child`.
    auto grow = [&](Edge& e, const End& parent, const End& child, double sign) {
        int pl = -1;
        Vec3 rP = Vec3::Zero();
        Mat3 RP = Mat3::Identity();
        if (parent.node >= 0) {
            const NodeAttach& pa = rm.nodes[static_cast<std::size_t>(parent.node)];
            pl = pa.link;
            rP = pa.r;
            RP = pa.R;
        }
        Link l;
        l.parent = pl;
        l.r_pre = rP + RP * parent.o;
        l.R_pre = RP * parent.R;
        l.R_post = child.R.transpose();
        l.r_post = -child.R.transpose() * child.o;
        l.joint_label = e.desc->label;
        l.joint_type = e.desc->type;
        Vec3 pp, pc;
        Mat3 Rp, Rc;
        end_pose(parent, pp, Rp);
        end_pose(child, pc, Rc);
        const Mat3 Rrel = Rp.transpose() * Rc;
        NodeAttach& ca = rm.nodes[static_cast<std::size_t>(child.node)];
        const std::string& t = e.desc->type;
        if (t == "cardano hinge") {
            // R_rel = Rz(a) Ry(b): about axis 3 of frame 1, then about the turned axis 2 (axis 3
            // of frame 1 stays normal to axis 2 of frame 2; the two axes are always orthogonal).
            Link l1 = l;
            l1.axis = Vec3::UnitZ();
            l1.R_post.setIdentity();
            l1.r_post.setZero();
            l1.name = "Rz";
            int i1 = add_link(l1);
            rm.q0.push_back(std::atan2(-Rrel(0, 1), Rrel(1, 1)));
            l.parent = i1;
            l.r_pre.setZero();
            l.R_pre.setIdentity();
            l.axis = Vec3::UnitY();
            l.name = "Ry";
            l.node_label = ca.label;
            ca.link = add_link(l);
            rm.q0.push_back(std::atan2(-Rrel(2, 0), Rrel(2, 2)));
        } else if (t == "prismatic") {
            // Three translations along the axes of frame 1; the relative orientation is fixed.
            const Vec3 d0 = Rp.transpose() * (pc - pp);
            const char* names[3] = {"Tx", "Ty", "Tz"};
            int parent = l.parent;
            for (int j = 0; j < 3; ++j) {
                Link lj = l;
                lj.parent = parent;
                lj.kind = Axis::prismatic;
                lj.axis = Vec3::Unit(j);
                if (j > 0) {
                    lj.r_pre.setZero();
                    lj.R_pre.setIdentity();
                }
                if (j < 2) {
                    lj.R_post.setIdentity();
                    lj.r_post.setZero();
                } else {
                    lj.node_label = ca.label;
                }
                lj.name = names[j];
                parent = add_link(lj);
                rm.q0.push_back(d0[j]);
            }
            ca.link = parent;
        } else if (t == "spherical hinge" || t == "spherical pin") {
            // Three revolutes about x, y, z of the joint frame, the initial relative rotation put
            // into the first link's fixed part so that the angles start at 0 (far from gimbal
            // lock).
            Link l1 = l, l2 = l;
            l1.R_pre = l.R_pre * Rrel;
            l1.axis = Vec3::UnitX();
            l1.R_post.setIdentity();
            l1.r_post.setZero();
            l1.name = "Rx";
            int i1 = add_link(l1);
            rm.q0.push_back(0.0);
            l2.parent = i1;
            l2.r_pre.setZero();
            l2.R_pre.setIdentity();
            l2.axis = Vec3::UnitY();
            l2.R_post.setIdentity();
            l2.r_post.setZero();
            l2.name = "Ry";
            int i2 = add_link(l2);
            rm.q0.push_back(0.0);
            l.parent = i2;
            l.r_pre.setZero();
            l.R_pre.setIdentity();
            l.axis = Vec3::UnitZ();
            l.name = "Rz";
            l.node_label = ca.label;
            ca.link = add_link(l);
            rm.q0.push_back(0.0);
        } else {
            l.axis = Vec3::UnitZ();
            l.name = "Rz";
            l.node_label = ca.label;
            if (e.driven) {
                l.driven = true;
                l.velocity_drive =
                    make_drive(*e.desc->props.get<std::shared_ptr<const DriveSpec>>("omega"), env);
                // The tree may run from node 2 to node 1: the coordinate then turns the other way.
                l.drive_sign = sign;
            }
            ca.link = add_link(l);
            rm.q0.push_back(angle_about_z(Rrel));
        }
        ca.r.setZero();
        ca.R.setIdentity();
    };
    // A node with no tree joint to the ground: a free joint, 3 translations along the world axes
    // and 3 revolutes about the axes of its initial frame (angles 0 at the start).
    auto free_joint = [&](int k) {
        NodeAttach& na = rm.nodes[static_cast<std::size_t>(k)];
        const NodeInit& ni = init[static_cast<std::size_t>(k)];
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
            rm.q0.push_back(0.0);
        }
        na.link = parent;
        na.r.setZero();
        na.R.setIdentity();
    };

    // Breadth-first over the tree edges from the ground, then from each still unplaced node
    // (given a free joint) in deck order.
    std::vector<int> queue;
    auto placed = [&](const End& e) {
        return e.node < 0 || rm.nodes[static_cast<std::size_t>(e.node)].link != -2;
    };
    auto expand = [&]() {
        bool grew = true;
        while (grew) {
            grew = false;
            for (Edge& e : edges) {
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
    };
    expand();
    for (int k = 0; k < nn; ++k) {
        if (rm.nodes[static_cast<std::size_t>(k)].link != -2) continue;
        free_joint(k);
        expand();
    }
    // Driven joints must be in the tree.
    for (const Edge& e : edges)
        if (e.driven && !e.in_tree)
            unsupported(*e.desc, "a driven joint that closes a loop cannot be cut");

    // Cuts: every joint not in the tree.
    auto link_end = [&](const End& e, int& link, Vec3& p, Mat3& R) {
        if (e.node < 0) {
            link = -1;
            p = e.o;
            R = e.R;
            return;
        }
        const NodeAttach& na = rm.nodes[static_cast<std::size_t>(e.node)];
        link = na.link;
        p = na.r + na.R * e.o;
        R = na.R * e.R;
    };
    for (const Edge& e : edges) {
        if (e.in_tree) continue;
        Cut c;
        c.label = e.desc->label;
        c.type = e.desc->type;
        link_end(e.a, c.link_a, c.p_a, c.R_a);
        link_end(e.b, c.link_b, c.p_b, c.R_b);
        const std::string& t = e.desc->type;
        if (t == "revolute hinge" || t == "revolute pin")
            c.kind = CutKind::revolute, c.rows = 5;
        else if (t == "spherical hinge" || t == "spherical pin")
            c.kind = CutKind::ball, c.rows = 3;
        else if (t == "cardano hinge")
            c.kind = CutKind::cardano, c.rows = 4;
        else if (t == "prismatic")
            c.kind = CutKind::prismatic, c.rows = 3;
        else if (t == "in line")
            c.kind = CutKind::in_line, c.rows = 2;
        else if (t == "in plane")
            c.kind = CutKind::in_plane, c.rows = 1;
        else if (t == "distance") {
            c.kind = CutKind::rod;
            c.rows = 1;
            c.length = e.desc->props.get<double>("length");
        }
        if (c.link_a == c.link_b)
            unsupported(
                *e.desc,
                "both ends are on the same rigid part of the tree (a joint between ground nodes?)");
        c.first_row = rm.n_constraints;
        rm.n_constraints += c.rows;
        rm.cuts.push_back(c);
    }

    // Bodies, gravity, loads, link forces.
    auto place = [&](const EntityDesc& d, const char* key, int& link, Vec3& r, Mat3& R) {
        const NodeAttach& na = rm.nodes[static_cast<std::size_t>(node_of(d, key))];
        link = na.link;
        r = na.r;
        R = na.R;
    };
    for (const EntityDesc* dp : forces) {
        const EntityDesc& d = *dp;
        int link;
        Vec3 r;
        Mat3 R;
        if (d.category == "body") {
            place(d, "node", link, r, R);
            if (link < 0) continue;  // a body on the ground does not move
            Link& l = rm.links[static_cast<std::size_t>(link)];
            const double m = d.props.get<double>("mass");
            const Vec3 c = r + R * d.props.get<Vec3>("center of mass");
            const Mat3 J = R * d.props.get<Mat3>("inertia") * R.transpose();
            // Combine with what the link already carries: inertia about the common centre of mass.
            const double mt = l.mass + m;
            const Vec3 ct = mt > 0 ? Vec3((l.mass * l.com + m * c) / mt) : Vec3::Zero();
            auto shift = [&](double mm, const Vec3& cc) {
                Vec3 dd = cc - ct;
                return Mat3(mm * (dd.squaredNorm() * Mat3::Identity() - dd * dd.transpose()));
            };
            l.inertia = l.inertia + shift(l.mass, l.com) + J + shift(m, c);
            l.mass = mt;
            l.com = ct;
        } else if (d.category == "gravity") {
            if (d.props.get_or<std::string>("field", "uniform") != "uniform")
                unsupported(d, "only uniform gravity");
            rm.has_gravity = true;
            rm.gravity = TplDrive<3>::make(
                *d.props.get<std::shared_ptr<const TplDriveSpec>>("acceleration"), env);
        } else if (d.category == "force" || d.category == "couple") {
            bool couple = d.category == "couple";
            if (d.type != "absolute" && d.type != "follower")
                unsupported(d, "only absolute and follower forces and couples on one node");
            Load ld;
            ld.label = d.label;
            place(d, "node", link, r, R);
            ld.link = link;
            ld.R_node = R;
            ld.point = r + R * d.props.get_or<Vec3>("offset", Vec3::Zero());
            bool follower = d.type == "follower";
            ld.kind = couple ? (follower ? LoadKind::couple_follower : LoadKind::couple_absolute)
                             : (follower ? LoadKind::force_follower : LoadKind::force_absolute);
            ld.value = TplDrive<3>::make(
                *d.props.get<std::shared_ptr<const TplDriveSpec>>(couple ? "moment" : "force"),
                env);
            if (link >= 0) rm.loads.push_back(std::move(ld));
        } else {
            // rod, deformable hinge: linear (visco)elastic laws only.
            LinkForce lf;
            lf.label = d.label;
            const auto& law = *d.props.get<std::shared_ptr<const LawSpec>>("law");
            if (law.type != "linearelastic" && law.type != "linearviscoelastic")
                unsupported(d, "only linear elastic and linear viscoelastic laws (isotropic)");
            const double k = law.params.get<double>("stiffness");
            const double c = law.params.get_or<double>("damping", 0.0);
            Vec3 r2;
            Mat3 R2;
            place(d, "node1", lf.link_a, r, R);
            place(d, "node2", lf.link_b, r2, R2);
            lf.p_a = r + R * d.props.get_or<Vec3>("offset1", Vec3::Zero());
            lf.p_b = r2 + R2 * d.props.get_or<Vec3>("offset2", Vec3::Zero());
            if (d.type == "rod") {
                lf.kind = LinkForceKind::rod;
                lf.l0 = d.props.get<double>("l0");
                lf.ea = k;
                lf.ed = c;
            } else {
                lf.kind = LinkForceKind::deformable_hinge;
                lf.R_a = R * d.props.get_or<Mat3>("orientation1", Mat3::Identity());
                lf.R_b = R2 * d.props.get_or<Mat3>("orientation2", Mat3::Identity());
                lf.K = k * Mat3::Identity();
                lf.D = c * Mat3::Identity();
            }
            rm.link_forces.push_back(lf);
        }
    }
    rm.qd0.assign(rm.q0.size(), 0.0);
    return rm;
}

}  // namespace mbs::reduced
