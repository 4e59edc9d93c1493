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

struct TotalSpec;

// A joint of the deck with its two ends and what it can become.
struct Edge {
    const EntityDesc* desc = nullptr;
    End a, b;      // node1 side, node2 side (pins: node side, ground side)
    int cut_cost;  // equations it would give as a cut (tree joints: the larger, the more it is
                   // kept)
    bool tree_capable = false;
    bool driven = false;
    bool in_tree = false;
    std::shared_ptr<TotalSpec> total;  // total joint / total pin joint
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
// Angle of a rotation about axis k (R = exp(a e_k)).
double angle_about(const Mat3& R, int k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    return std::atan2(R(j, i), R(i, i));
}

Mat3 rotvec(const Vec3& v) {
    const double a = v.norm();
    return a > 0 ? Mat3(Eigen::AngleAxisd(a, v / a).toRotationMatrix()) : Mat3::Identity();
}

// Component k of a template drive as a scalar drive.
class ComponentDrive final : public Drive {
  public:
    ComponentDrive(TplDrive<3> d, int k) : d_(std::move(d)), k_(k) {}
    double value(double t) const override { return d_.value(t)[k_]; }
    double deriv(double t) const override { return d_.deriv(t)[k_]; }

  private:
    TplDrive<3> d_;
    int k_;
};

// Whether component k of a template drive is constant in time (null, const, or a zero entity).
bool constant_component(const TplDriveSpec& s, int k) {
    if (s.type == "null") return true;
    if (s.type == "single")
        return !s.drive || s.drive->type == "const" || s.drive->type == "null" ||
               s.entity[static_cast<std::size_t>(k)] == 0.0;
    if (s.type == "component") {
        const auto& c = s.components[static_cast<std::size_t>(k)];
        return !c || c->type == "const" || c->type == "null";
    }
    for (const auto& ch : s.children)
        if (!constant_component(*ch, k)) return false;
    return true;
}

// A total joint (or total pin joint) read for the tree: end 1 (node 1, or the ground for the pin)
// carries the position frame (f1, R1p) and the rotation frame R1r, end 2 (f2, R2r). Each
// component is free (inactive), fixed (imposed, constant value), driven at position level
// (imposed, a drive of time) or at velocity level.
enum class Comp { free, fixed, position, velocity };
struct TotalSpec {
    Vec3 f1 = Vec3::Zero(), f2 = Vec3::Zero();
    Mat3 R1p = Mat3::Identity(), R1r = Mat3::Identity(), R2r = Mat3::Identity();
    Comp pc[3] = {Comp::free, Comp::free, Comp::free}, rc[3] = {Comp::free, Comp::free, Comp::free};
    Vec3 pval = Vec3::Zero(), rval = Vec3::Zero();  // fixed values (and values at t0)
    DrivePtr pdrv[3], rdrv[3];
    // Orientation: 3 free rotations, one rotation about axis rot_axis (free or driven) after the
    // constant R0 = exp(rval), locked at R0, or two free rotations with component rot_axis of
    // the relative rotation vector log(R0^T Ra^T Rb) locked at 0 (the DAE's row; R0 = exp(rval)
    // holds the fixed component's value).
    enum class Rot { free3, one, locked, two } rot = Rot::locked;
    int rot_axis = 2;
    int equations() const {
        int n = 0;
        for (int k = 0; k < 3; ++k) n += (pc[k] != Comp::free) + (rc[k] != Comp::free);
        return n;
    }
    bool driven() const {
        for (int k = 0; k < 3; ++k)
            if (pc[k] == Comp::position || pc[k] == Comp::velocity || rc[k] == Comp::position ||
                rc[k] == Comp::velocity)
                return true;
        return false;
    }
};

// One elementary motion of a joint sequence, after the constant transform (r, R) of the current
// frame: a rotation about / a translation along axis `axis` by the coordinate; a `fixed` step has
// no coordinate, its motion by q0 is folded into the next constant transform.
struct Step {
    Vec3 r = Vec3::Zero();
    Mat3 R = Mat3::Identity();
    Axis kind = Axis::revolute;
    int axis = 2;
    bool fixed = false;
    double q0 = 0.0;
    DrivePtr velocity_drive, position_drive;
    double sign = 1.0;
};

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

    // Total joint / total pin joint: frames, the status of each component, its drive.
    const double t_init = clock ? clock->time : 0.0;
    auto read_total = [&](const EntityDesc& d) {
        auto ts = std::make_shared<TotalSpec>();
        // drive displacement (pin): a total (pin) joint with the position imposed by "drive" and
        // the rotation free; drive hinge: the rotation imposed by "drive" (frames "orientation1/2")
        // and the position free.
        const bool pin = d.type == "total pin joint" || d.type == "drive displacement pin";
        const bool disp = d.type.rfind("drive displacement", 0) == 0,
                   hinge = d.type == "drive hinge";
        const Props& pr = d.props;
        if (pin) {
            ts->f1 = pr.get_or<Vec3>("position", Vec3::Zero());
            ts->R1p = pr.get_or<Mat3>("ground position orientation", Mat3::Identity());
            ts->R1r = pr.get_or<Mat3>("ground rotation orientation", Mat3::Identity());
            ts->f2 = pr.get_or<Vec3>("offset", Vec3::Zero());
            ts->R2r = pr.get_or<Mat3>("rotation orientation", Mat3::Identity());
        } else {
            ts->f1 = pr.get_or<Vec3>("offset1", Vec3::Zero());
            ts->R1p = pr.get_or<Mat3>("position orientation1", Mat3::Identity());
            ts->R1r = pr.get_or<Mat3>("rotation orientation1", Mat3::Identity());
            ts->f2 = pr.get_or<Vec3>("offset2", Vec3::Zero());
            ts->R2r = pr.get_or<Mat3>("rotation orientation2", Mat3::Identity());
        }
        if (hinge) {
            ts->R1r = pr.get_or<Mat3>("orientation1", Mat3::Identity());
            ts->R2r = pr.get_or<Mat3>("orientation2", Mat3::Identity());
        }
        auto statuses = [&](const std::string& st, const char* drive_key, Comp* out, Vec3& val,
                            DrivePtr* drv) {
            const auto* spec = pr.find(drive_key)
                                   ? &pr.get<std::shared_ptr<const TplDriveSpec>>(drive_key)
                                   : nullptr;
            std::size_t from = 0;
            for (int k = 0; k < 3; ++k) {
                const std::size_t to = st.find(',', from);
                const std::string w =
                    st.substr(from, to == std::string::npos ? std::string::npos : to - from);
                from = to == std::string::npos ? st.size() : to + 2;
                if (w == "inactive") {
                    out[k] = Comp::free;
                    continue;
                }
                if (!spec) unsupported(d, "an imposed component without its drive");
                if (w == "velocity" || w == "angular velocity") {
                    out[k] = Comp::velocity;
                } else {
                    out[k] = constant_component(**spec, k) ? Comp::fixed : Comp::position;
                    val[k] = TplDrive<3>::make(**spec, env).value(t_init)[k];
                }
                if (out[k] != Comp::fixed)
                    drv[k] = std::make_shared<ComponentDrive>(TplDrive<3>::make(**spec, env), k);
            }
        };
        const std::string none = "inactive, inactive, inactive";
        if (disp || hinge) {
            statuses(disp ? "position, position, position" : none, "drive", ts->pc, ts->pval,
                     ts->pdrv);
            statuses(hinge ? "rotation, rotation, rotation" : none, "drive", ts->rc, ts->rval,
                     ts->rdrv);
        } else {
            statuses(pr.get_or<std::string>("status position", none), "position drive", ts->pc,
                     ts->pval, ts->pdrv);
            statuses(pr.get_or<std::string>("status orientation", none), "orientation drive",
                     ts->rc, ts->rval, ts->rdrv);
        }
        int nfree = 0, nmove = 0, axis = -1;
        for (int k = 0; k < 3; ++k) {
            nfree += ts->rc[k] == Comp::free;
            if (ts->rc[k] != Comp::fixed) ++nmove, axis = k;
        }
        if (nfree == 3) {
            ts->rot = TotalSpec::Rot::free3;
        } else if (nmove == 1) {
            ts->rot = TotalSpec::Rot::one;
            ts->rot_axis = axis;
            if (ts->rc[axis] != Comp::free) {
                if (!ts->rval.isZero(0.0) && ts->rc[axis] == Comp::velocity)
                    unsupported(d, "an angular velocity component with non-zero imposed rotations");
                if (ts->rc[axis] == Comp::position) ts->rval[axis] = 0.0;
                for (int k = 0; k < 3; ++k)
                    if (k != axis && ts->rval[k] != 0.0)
                        unsupported(d, "a driven rotation with other non-zero imposed rotations");
            }
        } else if (nmove == 0) {
            ts->rot = TotalSpec::Rot::locked;
        } else if (nfree == 2 && nmove == 2) {
            ts->rot = TotalSpec::Rot::two;
            for (int k = 0; k < 3; ++k)
                if (ts->rc[k] == Comp::fixed) ts->rot_axis = k;
        } else {
            unsupported(d,
                        "the relative rotation must be free (3 inactive components), locked, "
                        "about one axis (one inactive or driven component, the others imposed) "
                        "or have two inactive components with the third imposed constant (not "
                        "driven)");
        }
        return ts;
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
        } else if (t == "total joint" || t == "total pin joint" || t == "drive hinge" ||
                   t == "drive displacement" || t == "drive displacement pin") {
            e.total = read_total(d);
            const TotalSpec& ts = *e.total;
            if (t == "total joint" || t == "drive displacement") {
                e.a = node_end(d, "node1", "offset1", "rotation orientation1");
                e.b = node_end(d, "node2", "offset2", "rotation orientation2");
            } else if (t == "drive hinge") {
                e.a = node_end(d, "node1", "offset1", "orientation1");
                e.b = node_end(d, "node2", "offset2", "orientation2");
            } else {
                e.a.o = ts.f1;
                e.a.R = ts.R1r;
                e.b = node_end(d, "node", "offset", "rotation orientation");
            }
            e.tree_capable = true;
            e.cut_cost = ts.equations();
            if (ts.driven()) {
                e.driven = true;
                e.cut_cost = 1000;
            }
        } else if (t == "in line") {
            e.a = node_end(d, "node1", "offset1", "orientation1");
            e.b = node_end(d, "node2", "offset2", nullptr);
            e.cut_cost = 2;
            e.tree_capable = true;
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
            e.tree_capable = true;
        } else if (t == "distance") {
            if (!d.props.has("length") && !d.props.has("drive"))
                unsupported(d, "a distance needs its length or its drive");
            e.a = node_end(d, "node1", "offset1", nullptr);
            e.b = node_end(d, "node2", "offset2", nullptr);
            e.cut_cost = 1;
        } else if (t == "rod" || t == "deformable hinge") {
            forces.push_back(&d);
            continue;
        } else {
            unsupported(d,
                        "supported joints: clamp, revolute hinge/pin, axial rotation, spherical "
                        "hinge/pin, cardano hinge, prismatic, in line, in plane, total (pin) "
                        "joint, drive hinge, drive displacement (pin) (tree or cut), distance "
                        "(cuts); rod and deformable hinge (forces)");
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
    // Emits the links of a joint sequence from the `parent` end (already placed) to the `child`
    // end: constant transforms accumulate (in the parent link's frame first) until a step with a
    // coordinate makes a link; what is left after the last one, with the child end's frame, is
    // that link's post transform (or, with no coordinate at all, the child node's place on the
    // parent link).
    auto emit = [&](const Edge& e, const End& parent, const End& child,
                    const std::vector<Step>& steps) {
        int pl = -1;
        Vec3 r = parent.o;
        Mat3 R = parent.R;
        if (parent.node >= 0) {
            const NodeAttach& pa = rm.nodes[static_cast<std::size_t>(parent.node)];
            pl = pa.link;
            r = pa.r + pa.R * parent.o;
            R = pa.R * parent.R;
        }
        NodeAttach& ca = rm.nodes[static_cast<std::size_t>(child.node)];
        int last = -1;
        for (const Step& st : steps) {
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
            rm.q0.push_back(st.q0);
            r.setZero();
            R.setIdentity();
        }
        const Mat3 Rc = R * child.R.transpose();
        const Vec3 rc = r - Rc * child.o;
        if (last >= 0) {
            Link& l = rm.links[static_cast<std::size_t>(last)];
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
    };
    auto rot = [](int axis, double q0, const Mat3& R = Mat3::Identity()) {
        Step st;
        st.axis = axis;
        st.q0 = q0;
        st.R = R;
        return st;
    };
    auto trans = [](int axis, double q0) {
        Step st;
        st.kind = Axis::prismatic;
        st.axis = axis;
        st.q0 = q0;
        return st;
    };
    // Three free rotations about x, y, z of the current frame, the initial relative rotation Rrel
    // put into the first one's fixed part so that the angles start at 0 (far from gimbal lock).
    auto ball = [&](std::vector<Step>& steps, const Mat3& pre) {
        steps.push_back(rot(0, 0.0, pre));
        steps.push_back(rot(1, 0.0));
        steps.push_back(rot(2, 0.0));
    };
    // The tree grows from `parent` to `child`; sign = -1 when that is from the joint's node 2 to
    // its node 1 (coordinates then measure the motion the other way).
    auto grow = [&](Edge& e, const End& parent, const End& child, double sign) {
        Vec3 pp, pc;
        Mat3 Rp, Rc;
        end_pose(parent, pp, Rp);
        end_pose(child, pc, Rc);
        const Mat3 Rrel = Rp.transpose() * Rc;
        const Vec3 d0 = Rp.transpose() * (pc - pp);
        const std::string& t = e.desc->type;
        std::vector<Step> steps;
        if (t == "cardano hinge") {
            // R_rel = Rz(a) Ry(b): about axis 3 of frame 1, then about the turned axis 2 (axis 3
            // of frame 1 stays normal to axis 2 of frame 2; the two axes are always orthogonal).
            steps.push_back(rot(2, std::atan2(-Rrel(0, 1), Rrel(1, 1))));
            steps.push_back(rot(1, std::atan2(-Rrel(2, 0), Rrel(2, 2))));
        } else if (t == "prismatic") {
            // Three translations along the axes of frame 1; the relative orientation is fixed.
            for (int j = 0; j < 3; ++j) steps.push_back(trans(j, d0[j]));
        } else if (t == "spherical hinge" || t == "spherical pin") {
            ball(steps, Rrel);
        } else if (t == "in line" || t == "in plane") {
            // The point of node 2 moves along axis 3 of the line frame (in line) or along axes 1
            // and 2 of the plane frame (in plane), node 2 turns freely. From node 2 the
            // rotations come first; they bring the frame to the line/plane frame of node 1.
            const int first = t == "in line" ? 2 : 0;
            const int nt = t == "in line" ? 1 : 2;
            if (sign > 0) {
                for (int j = first; j < first + nt; ++j) steps.push_back(trans(j, d0[j]));
                ball(steps, Rrel);
            } else {
                ball(steps, Rrel);
                // d0 from node 1's frame: p2 - p1 = sum d_j e_j, so from node 2 the moves are -d_j.
                const Vec3 d1 = Rc.transpose() * (pp - pc);
                for (int j = first; j < first + nt; ++j) steps.push_back(trans(j, -d1[j]));
            }
        } else if (e.total) {
            const TotalSpec& ts = *e.total;
            // Frames at the start: Ra = R1 R1r, Rb = R2 R2r (Rp is the parent end's frame,
            // end 1's rotation frame or end 2's). Position frame of end 1: Rpos = R1 R1p.
            const Mat3 Ra = sign > 0 ? Rp : Rc, Rb = sign > 0 ? Rc : Rp;
            const Vec3 pa = sign > 0 ? pp : pc, pb = sign > 0 ? pc : pp;
            const Mat3 Rpos = Ra * ts.R1r.transpose() * ts.R1p;
            const Vec3 dp = Rpos.transpose() * (pb - pa);
            const Mat3 R0 = rotvec(ts.rval);
            auto comp_step = [&](Step st, Comp c, const DrivePtr& drv, double value, double s) {
                st.sign = s;
                if (c == Comp::fixed) {
                    st.fixed = true;
                    st.q0 = s * value;
                } else if (c == Comp::position) {
                    st.position_drive = drv;
                    st.q0 = s * drv->value(t_init);
                } else if (c == Comp::velocity) {
                    st.velocity_drive = drv;
                }
                return st;
            };
            auto translations = [&](double s, const Mat3& pre) {
                for (int k = 0; k < 3; ++k) {
                    Step st = comp_step(trans(k, s * dp[k]), ts.pc[k], ts.pdrv[k], ts.pval[k], s);
                    if (k == 0) st.R = pre;
                    steps.push_back(st);
                }
            };
            auto rotations = [&](double s, const Mat3& pre, const Mat3& post) {
                // pre: constant rotation before; post: after (carried by the next step).
                if (ts.rot == TotalSpec::Rot::free3 || ts.rot == TotalSpec::Rot::two) {
                    // Two free rotations: no product of two fixed-axis rotations keeps one
                    // component of the rotation vector at 0 (Rx(a) Ry(b) has log_z = ab/2 +
                    // O(3)); the three rotations of a ball and the locked component as a
                    // one-row cut of this joint (see the cuts below) are exact.
                    ball(steps,
                         pre * (s > 0 ? Mat3(Ra.transpose() * Rb) : Mat3(Rb.transpose() * Ra)));
                } else if (ts.rot == TotalSpec::Rot::one) {
                    const int k = ts.rot_axis;
                    const double a = angle_about(R0.transpose() * Ra.transpose() * Rb, k);
                    Step st = comp_step(rot(k, s * a), ts.rc[k], ts.rdrv[k], 0.0, s);
                    st.R = s > 0 ? Mat3(pre * R0) : pre;
                    steps.push_back(st);
                    if (s < 0) {
                        Step fx = rot(k, 0.0, R0.transpose());
                        fx.fixed = true;
                        steps.push_back(fx);
                    }
                } else {
                    Step fx = rot(0, 0.0, s > 0 ? Mat3(pre * R0) : Mat3(pre * R0.transpose()));
                    fx.fixed = true;
                    steps.push_back(fx);
                }
                Step fx = rot(0, 0.0, post);
                fx.fixed = true;
                steps.push_back(fx);
            };
            if (sign > 0) {
                // From (f1, R1p): translations, then R1p^T R1r, the rotations, end 2's R2r.
                End par = parent;
                par.R = ts.R1p;
                translations(1.0, Mat3::Identity());
                rotations(1.0, ts.R1p.transpose() * ts.R1r, Mat3::Identity());
                emit(e, par, child, steps);
            } else {
                // From (f2, R2r): the inverse rotations, R1r^T R1p, translations by -d, end 1's
                // (f1, R1p).
                rotations(-1.0, Mat3::Identity(), ts.R1r.transpose() * ts.R1p);
                translations(-1.0, Mat3::Identity());
                End ch = child;
                ch.R = child.R * ts.R1r.transpose() * ts.R1p;
                emit(e, parent, ch, steps);
            }
            return;
        } else {
            Step st = rot(2, angle_about_z(Rrel));
            if (e.driven) {
                st.velocity_drive =
                    make_drive(*e.desc->props.get<std::shared_ptr<const DriveSpec>>("omega"), env);
                // The tree may run from node 2 to node 1: the coordinate then turns the other way.
                st.sign = sign;
            }
            steps.push_back(st);
        }
        emit(e, parent, child, steps);
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
    // Driven joints are preferred in the tree; one that closes a loop becomes a driven cut when
    // its drives act at position level on position components (h(q, t) = h0(q) - f(t)).
    for (const Edge& e : edges) {
        if (!e.driven || e.in_tree) continue;
        bool ok = e.total != nullptr;
        if (e.total)
            for (int k = 0; k < 3; ++k)
                ok = ok && e.total->pc[k] != Comp::velocity && e.total->rc[k] != Comp::position &&
                     e.total->rc[k] != Comp::velocity;
        if (!ok)
            unsupported(*e.desc,
                        "a driven joint that closes a loop is a cut only with position-level "
                        "drives of its position components (a driven rotation or a velocity-level "
                        "drive has to be a tree joint: choose another joint of the loop as the "
                        "cut)");
    }

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
        // A tree joint with two free rotations also gives its locked rotation component as a
        // one-row cut (its tree part is a ball).
        const bool twist_only = e.in_tree && e.total && e.total->rot == TotalSpec::Rot::two;
        if (e.in_tree && !twist_only) continue;
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
        else if (e.total) {
            // Position rows along the axes of end 1's position frame; orientation rows: none
            // (free), the revolute's two about axis k (frames turned by R0 and permuted so that
            // k is axis 3), or the three of a locked relative orientation R0.
            const TotalSpec& ts = *e.total;
            c.kind = CutKind::total;
            c.Rp_a = c.R_a * ts.R1r.transpose() * ts.R1p;
            for (int k = 0; k < 3 && !twist_only; ++k) {
                if (ts.pc[k] == Comp::free) continue;
                c.pos_mask |= 1 << k, ++c.rows;
                if (ts.pc[k] == Comp::position) c.pos_drive[k] = ts.pdrv[k];
            }
            c.pos_value = ts.pval;
            const Mat3 R0 = rotvec(ts.rval);
            if (ts.rot == TotalSpec::Rot::two) {
                c.R_a = c.R_a * R0;
                c.rot_axis = ts.rot_axis;
                c.rot_rows = 1;
            } else if (ts.rot == TotalSpec::Rot::one) {
                const int k = ts.rot_axis;
                Mat3 P;
                P << Vec3::Unit((k + 1) % 3), Vec3::Unit((k + 2) % 3), Vec3::Unit(k);
                c.R_a = c.R_a * R0 * P;
                c.R_b = c.R_b * P;
                c.rot_rows = 2;
            } else if (ts.rot == TotalSpec::Rot::locked) {
                c.R_a = c.R_a * R0;
                c.rot_rows = 3;
            }
            c.rows += c.rot_rows;
        } else if (t == "distance") {
            c.kind = CutKind::rod;
            c.rows = 1;
            if (e.desc->props.has("drive"))
                c.length_drive =
                    make_drive(*e.desc->props.get<std::shared_ptr<const DriveSpec>>("drive"), env);
            else
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
            ReducedModel::BodyPart b;
            b.label = d.label;
            b.link = link;
            b.mass = d.props.get<double>("mass");
            b.com = r + R * d.props.get<Vec3>("center of mass");
            b.inertia = R * d.props.get<Mat3>("inertia") * R.transpose();
            rm.bodies.push_back(b);
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
    combine_bodies(rm);
    rm.qd0.assign(rm.q0.size(), 0.0);
    return rm;
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
