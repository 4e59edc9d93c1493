// Rigid body on a structural node (docs/deck-language.md 5.1): mass m, centre of mass xc and
// inertia about it (node frame). With S = R (m xc) and J = R Jn R^T (Jn: inertia about the node, Jn
// = Jc + m (|xc|^2 I - xc xc^T)) the body adds to the node (docs/formulation.md 2):
//   momentum rows:  m xdot + w x S          angular momentum rows:  S x xdot + J w
//   force rows:     m g                     moment rows:            S x g        (gravity g)
// Derivatives (dS = dtheta x S, dJ = skew(dtheta) J - J skew(dtheta)):
//   d(w x S)    = -skew(S) dw - skew(w) skew(S) dtheta
//   d(S x xdot) =  skew(S) dxdot + skew(xdot) skew(S) dtheta
//   d(J w)      =  J dw + (J skew(w) - skew(J w)) dtheta
//   d(S x g)    =  skew(g) skew(S) dtheta
// On a displacement-only node the body is a point mass: m xdot and m g only. On a static node
// (static model) only the gravity load remains. With `use: rigid bodies in assembly;` the
// gravity load (force and moment rows) also acts in the initial assembly.
#include "elements/misc/element_util.hpp"

namespace mbs {
namespace {

class Body final : public Element {
  public:
    Body(const EntityDesc& d, StructNode& n, const Vec3* g, bool in_assembly)
        : Element(d), n_(&n), g_(g), in_assembly_(in_assembly) {
        m_ = d.props.get<double>("mass");
        if (n.has_rotation()) {
            Vec3 xc = d.props.get<Vec3>("center of mass");
            s_ = m_ * xc;
            Jn_ = d.props.get<Mat3>("inertia") +
                  m_ * (xc.squaredNorm() * Mat3::Identity() - xc * xc.transpose());
        }
        // The node's lumped inertia (node accelerations for output, solvers/dae/accelerations).
        if (n.is_dynamic()) {
            n.inertia_m += m_;
            n.inertia_s += s_;
            n.inertia_J += Jn_;
        }
    }

    void declare(PatternBuilder& p) override {
        // rows force, moment [, momentum, angular momentum] x cols x, g (see above)
        const char* mask =
            n_->has_rotation() ? (n_->is_dynamic() ? "..|.F|IF|FF" : "..|.F") : ".|I";
        block_ = p.block(n_->first_dof(), n_->ndofs(), n_->first_dof(), n_->pos_cols(), mask);
    }

    bool in_assembly() const override { return in_assembly_; }

    void residual(const StepContext& c, const StateView&, double* r) const override {
        double* p = r + n_->first_dof();
        const int mrow = n_->pos_cols();
        Vec3 S = n_->R * s_;
        if (g_) {
            Vec3 F = m_ * *g_;
            Vec3 M = S.cross(*g_);
            el::add_wrench(r, *n_, F, M);
        }
        if (!n_->is_dynamic() || c.phase == Phase::assembly) return;
        Vec3 b = m_ * n_->xdot + n_->w.cross(S);
        for (int i = 0; i < 3; ++i) p[mrow + i] += b[i];
        if (n_->has_rotation()) {
            Mat3 J = n_->R * Jn_ * n_->R.transpose();
            Vec3 h = S.cross(n_->xdot) + J * n_->w;
            for (int i = 0; i < 3; ++i) p[mrow + 3 + i] += h[i];
        }
    }

    void jacobian(const StepContext& c, const StateView&, Jacobian& J) const override {
        using M12 = Eigen::Matrix<double, 12, 3>;
        M12 Dx = M12::Zero(), Dth = M12::Zero(), Dxd = M12::Zero(), Dw = M12::Zero();
        const int mrow = n_->pos_cols();
        Vec3 S = n_->R * s_;
        if (g_ && n_->has_rotation()) Dth.block<3, 3>(3, 0) = skew(*g_) * skew(S);
        if (n_->is_dynamic() && c.phase != Phase::assembly) {
            Dxd.block<3, 3>(mrow, 0) = m_ * Mat3::Identity();
            if (n_->has_rotation()) {
                const Vec3& w = n_->w;
                Mat3 Jg = n_->R * Jn_ * n_->R.transpose();
                Dw.block<3, 3>(6, 0) = -skew(S);
                Dth.block<3, 3>(6, 0) = -skew(w) * skew(S);
                Dxd.block<3, 3>(9, 0) = skew(S);
                Dw.block<3, 3>(9, 0) = Jg;
                Dth.block<3, 3>(9, 0) = skew(n_->xdot) * skew(S) + Jg * skew(w) - skew(Jg * w);
            }
        }
        J.add(block_, n_->chain<12>(Dx, Dth, Dxd, Dw, c));
    }

    double kinetic_energy() const {
        Vec3 S = n_->R * s_;
        Mat3 Jg = n_->R * Jn_ * n_->R.transpose();
        return 0.5 * m_ * n_->xdot.squaredNorm() + n_->xdot.dot(n_->w.cross(S)) +
               0.5 * n_->w.dot(Jg * n_->w);
    }

    // Private data (MBDyn's Body): E kinetic energy, V potential energy of gravity
    // -g . (m x + S) (zero without gravity), m the mass.
    int private_data_count() const override { return 3; }
    const char* private_data_name(int i) const override {
        static const char* nm[] = {"E", "V", "m"};
        return nm[i];
    }
    double private_data(int i, const StateView&) const override {
        if (i == 0) return n_->is_dynamic() ? kinetic_energy() : 0.0;
        if (i == 2) return m_;
        return g_ ? -g_->dot(m_ * n_->x + n_->R * s_) : 0.0;
    }

  private:
    StructNode* n_;
    const Vec3* g_;
    double m_ = 0.0;
    Vec3 s_ = Vec3::Zero();
    Mat3 Jn_ = Mat3::Zero();
    BlockId block_ = -1;
    bool in_assembly_ = false;
};

std::unique_ptr<Element> make(const EntityDesc& d, BuildContext& ctx) {
    StructNode& n = el::node_prop(ctx, d, "node");
    return std::make_unique<Body>(d, n, ctx.gravity(), el::used_in_assembly(ctx, "rigid bodies"));
}

}  // namespace

MBS_REGISTER_ELEMENT_RUNTIME("body", "", make);

}  // namespace mbs
