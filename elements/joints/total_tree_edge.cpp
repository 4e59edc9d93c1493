// The total joint family on the relative-coordinate path (cards::total_tree_edge, total_joint.hpp).
#include <memory>
#include <string>

#include "elements/joints/total_joint.hpp"

namespace mbs::cards {
namespace {

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
struct TreeTotal {
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

// The motions of a total joint from the parent end to the child end (Growth::sign: from end 1
// or from end 2).
void grow_total(const TreeTotal& ts, tree::Growth& g, double t_init) {
    // Frames at the start: Ra = R1 R1r, Rb = R2 R2r (Rp is the parent end's frame,
    // end 1's rotation frame or end 2's). Position frame of end 1: Rpos = R1 R1p.
    const Mat3 Ra = g.sign > 0 ? g.Rp : g.Rc, Rb = g.sign > 0 ? g.Rc : g.Rp;
    const Vec3 pa = g.sign > 0 ? g.pp : g.pc, pb = g.sign > 0 ? g.pc : g.pp;
    const Mat3 Rpos = Ra * ts.R1r.transpose() * ts.R1p;
    const Vec3 dp = Rpos.transpose() * (pb - pa);
    const Mat3 R0 = tree::rotvec(ts.rval);
    auto comp_step = [&](tree::Step st, Comp c, const DrivePtr& drv, double value, double s) {
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
            tree::Step st =
                comp_step(tree::translation(k, s * dp[k]), ts.pc[k], ts.pdrv[k], ts.pval[k], s);
            if (k == 0) st.R = pre;
            g.steps.push_back(st);
        }
    };
    auto rotations = [&](double s, const Mat3& pre, const Mat3& post) {
        // pre: constant rotation before; post: after (carried by the next step).
        if (ts.rot == TreeTotal::Rot::free3 || ts.rot == TreeTotal::Rot::two) {
            // Two free rotations: no product of two fixed-axis rotations keeps one
            // component of the rotation vector at 0 (Rx(a) Ry(b) has log_z = ab/2 +
            // O(3)); the three rotations of a ball and the locked component as a
            // one-row cut of this joint (cut_total) are exact.
            tree::ball(g.steps,
                       pre * (s > 0 ? Mat3(Ra.transpose() * Rb) : Mat3(Rb.transpose() * Ra)));
        } else if (ts.rot == TreeTotal::Rot::one) {
            const int k = ts.rot_axis;
            const double a = tree::angle_about(R0.transpose() * Ra.transpose() * Rb, k);
            tree::Step st = comp_step(tree::rotation(k, s * a), ts.rc[k], ts.rdrv[k], 0.0, s);
            st.R = s > 0 ? Mat3(pre * R0) : pre;
            g.steps.push_back(st);
            if (s < 0) {
                tree::Step fx = tree::rotation(k, 0.0, R0.transpose());
                fx.fixed = true;
                g.steps.push_back(fx);
            }
        } else {
            tree::Step fx =
                tree::rotation(0, 0.0, s > 0 ? Mat3(pre * R0) : Mat3(pre * R0.transpose()));
            fx.fixed = true;
            g.steps.push_back(fx);
        }
        tree::Step fx = tree::rotation(0, 0.0, post);
        fx.fixed = true;
        g.steps.push_back(fx);
    };
    if (g.sign > 0) {
        // From (f1, R1p): translations, then R1p^T R1r, the rotations, end 2's R2r.
        g.parent_R = ts.R1p;
        translations(1.0, Mat3::Identity());
        rotations(1.0, ts.R1p.transpose() * ts.R1r, Mat3::Identity());
    } else {
        // From (f2, R2r): the inverse rotations, R1r^T R1p, translations by -d, end 1's
        // (f1, R1p).
        rotations(-1.0, Mat3::Identity(), ts.R1r.transpose() * ts.R1p);
        translations(-1.0, Mat3::Identity());
        const Mat3 Rc = g.child_R * ts.R1r.transpose() * ts.R1p;
        g.child_R = Rc;
    }
}

// Its equations as a loop cut (in the tree with two free rotations: only the locked component).
void cut_total(const TreeTotal& ts, tree::CutEquations& c, bool in_tree) {
    const bool twist_only = in_tree && ts.rot == TreeTotal::Rot::two;
    // Position rows along the axes of end 1's position frame; orientation rows: none
    // (free), the revolute's two about axis k (frames turned by R0 and permuted so that
    // k is axis 3), or the three of a locked relative orientation R0.
    c.kind = tree::CutKind::total;
    c.Rp_a = c.R_a * ts.R1r.transpose() * ts.R1p;
    for (int k = 0; k < 3 && !twist_only; ++k) {
        if (ts.pc[k] == Comp::free) continue;
        c.pos_mask |= 1 << k, ++c.rows;
        if (ts.pc[k] == Comp::position) c.pos_drive[k] = ts.pdrv[k];
    }
    c.pos_value = ts.pval;
    const Mat3 R0 = tree::rotvec(ts.rval);
    if (ts.rot == TreeTotal::Rot::two) {
        c.R_a = c.R_a * R0;
        c.rot_axis = ts.rot_axis;
        c.rot_rows = 1;
    } else if (ts.rot == TreeTotal::Rot::one) {
        const int k = ts.rot_axis;
        Mat3 P;
        P << Vec3::Unit((k + 1) % 3), Vec3::Unit((k + 2) % 3), Vec3::Unit(k);
        c.R_a = c.R_a * R0 * P;
        c.R_b = c.R_b * P;
        c.rot_rows = 2;
    } else if (ts.rot == TreeTotal::Rot::locked) {
        c.R_a = c.R_a * R0;
        c.rot_rows = 3;
    }
    c.rows += c.rot_rows;
}

}  // namespace

tree::Edge total_tree_edge(const EntityDesc& d, const tree::Context& ctx) {
    const auto& spec = d.spec_as<TotalSpec>();
    const DriveEnv& env = ctx.env;
    const double t_init = ctx.t_init;
    auto ts = std::make_shared<TreeTotal>();
    // drive displacement (pin): a total (pin) joint with the position imposed and the rotation
    // free; drive hinge: the rotation imposed (frames `orientation1/2`) and the position free.
    ts->f1 = spec.end[0].offset;
    ts->R1p = spec.position_frame[0];
    ts->R1r = spec.end[0].R;
    ts->f2 = spec.end[1].offset;
    ts->R2r = spec.end[1].R;
    auto statuses = [&](const std::array<Level, 3>& st, const TplDriveSpec* drive, Comp* out,
                        Vec3& val, DrivePtr* drv) {
        for (int k = 0; k < 3; ++k) {
            const Level w = st[static_cast<std::size_t>(k)];
            if (w == Level::inactive) {
                out[k] = Comp::free;
                continue;
            }
            if (!drive) tree::unsupported(d, "an imposed component without its drive");
            if (w == Level::velocity) {
                out[k] = Comp::velocity;
            } else {
                out[k] = constant_component(*drive, k) ? Comp::fixed : Comp::position;
                val[k] = TplDrive<3>::make(*drive, env).value(t_init)[k];
            }
            if (out[k] != Comp::fixed)
                drv[k] = std::make_shared<ComponentDrive>(TplDrive<3>::make(*drive, env), k);
        }
    };
    statuses(spec.pos, spec.pos_drive[0].get(), ts->pc, ts->pval, ts->pdrv);
    statuses(spec.rot, spec.rot_drive[0].get(), ts->rc, ts->rval, ts->rdrv);
    int nfree = 0, nmove = 0, axis = -1;
    for (int k = 0; k < 3; ++k) {
        nfree += ts->rc[k] == Comp::free;
        if (ts->rc[k] != Comp::fixed) ++nmove, axis = k;
    }
    if (nfree == 3) {
        ts->rot = TreeTotal::Rot::free3;
    } else if (nmove == 1) {
        ts->rot = TreeTotal::Rot::one;
        ts->rot_axis = axis;
        if (ts->rc[axis] != Comp::free) {
            if (!ts->rval.isZero(0.0) && ts->rc[axis] == Comp::velocity)
                tree::unsupported(d,
                                  "an angular velocity component with non-zero imposed rotations");
            if (ts->rc[axis] == Comp::position) ts->rval[axis] = 0.0;
            for (int k = 0; k < 3; ++k)
                if (k != axis && ts->rval[k] != 0.0)
                    tree::unsupported(d, "a driven rotation with other non-zero imposed rotations");
        }
    } else if (nmove == 0) {
        ts->rot = TreeTotal::Rot::locked;
    } else if (nfree == 2 && nmove == 2) {
        ts->rot = TreeTotal::Rot::two;
        for (int k = 0; k < 3; ++k)
            if (ts->rc[k] == Comp::fixed) ts->rot_axis = k;
    } else {
        tree::unsupported(d,
                          "the relative rotation must be free (3 inactive components), locked, "
                          "about one axis (one inactive or driven component, the others imposed) "
                          "or have two inactive components with the third imposed constant (not "
                          "driven)");
    }
    tree::Edge e;
    if (spec.pin()) {
        e.a.o = ts->f1;
        e.a.R = ts->R1r;
        e.b = tree_end(spec.end[1], "node");
    } else {
        e.a = tree_end(spec.end[0], "node1");
        e.b = tree_end(spec.end[1], "node2");
    }
    e.tree_capable = true;
    e.cut_cost = ts->equations();
    e.driven = ts->driven();
    // A driven total joint that closes a loop is a cut only with position-level drives of its
    // position components.
    e.driven_cut_ok = true;
    for (int k = 0; k < 3; ++k)
        e.driven_cut_ok = e.driven_cut_ok && ts->pc[k] != Comp::velocity &&
                          ts->rc[k] != Comp::position && ts->rc[k] != Comp::velocity;
    // With two free rotations the tree part is a ball; the locked component is a one-row cut.
    e.cut_in_tree = ts->rot == TreeTotal::Rot::two;
    e.grow = [ts](tree::Growth& g, const tree::Context& c) { grow_total(*ts, g, c.t_init); };
    e.cut = [ts](tree::CutEquations& c, bool in_tree, const tree::Context&) {
        cut_total(*ts, c, in_tree);
    };
    return e;
}

}  // namespace mbs::cards
