// The "automatic structural" element of a dynamic node: the node's own terms of Newton-Euler
// in first-order form (docs/formulation.md 2). Bodies add the momentum definitions' other side.
//
// Rows (rigid node):  force     r_F     = ... - beta'
//                     moment    r_M     = ... - gamma' - xdot x beta
//                     momentum  r_beta  = ... - beta
//                     ang. mom. r_gamma = ... - gamma
// Jacobian (J = dr/dy' + dCoef dr/dy):
//   r_F / beta: -I;  r_M / gamma: -I;  r_M / beta: -dCoef skew(xdot);  r_M / x: skew(beta)
//   (from d(-xdot x beta)/dxdot = skew(beta));  r_beta / beta: -dCoef I;  r_gamma / gamma: -dCoef
//   I.
// Displacement-only nodes have only the force and momentum rows.
#include "elements/misc/element_util.hpp"

namespace mbs {
namespace {

class AutomaticStructural final : public Element {
  public:
    AutomaticStructural(const EntityDesc& d, StructNode& n) : Element(d), n_(&n) {}

    void declare(PatternBuilder& p) override {
        // rows force, moment, momentum, angular momentum x cols x, g, beta, gamma (see above)
        const char* mask = n_->has_rotation() ? "..I.|F.FI|..I.|...I" : ".I|.I";
        block_ = p.block(n_->first_dof(), n_->ndofs(), n_->first_dof(), n_->ndofs(), mask);
    }

    void residual(const StepContext&, const StateView&, double* r) const override {
        double* p = r + n_->first_dof();
        const int m = n_->pos_cols();
        for (int i = 0; i < 3; ++i) {
            p[i] -= n_->beta_dot[i];
            p[m + i] -= n_->beta[i];
        }
        if (n_->has_rotation()) {
            Vec3 tm = n_->gamma_dot + n_->xdot.cross(n_->beta);
            for (int i = 0; i < 3; ++i) {
                p[3 + i] -= tm[i];
                p[9 + i] -= n_->gamma[i];
            }
        }
    }

    void jacobian(const StepContext& c, const StateView&, Jacobian& J) const override {
        Eigen::Matrix<double, 12, 12> a = Eigen::Matrix<double, 12, 12>::Zero();
        const int m = n_->pos_cols();
        a.block<3, 3>(0, m) = -Mat3::Identity();
        a.block<3, 3>(m, m) = -c.dCoef * Mat3::Identity();
        if (n_->has_rotation()) {
            a.block<3, 3>(3, 9) = -Mat3::Identity();
            a.block<3, 3>(3, 6) = -c.dCoef * skew(n_->xdot);
            a.block<3, 3>(3, 0) = skew(n_->beta);
            a.block<3, 3>(9, 9) = -c.dCoef * Mat3::Identity();
        }
        J.add(block_, a);
    }

  private:
    StructNode* n_;
    BlockId block_ = -1;
};

std::unique_ptr<Element> make(const EntityDesc& d, BuildContext& ctx) {
    StructNode& n = ctx.struct_node(EntityRef{"structural", d.label}, d);
    return std::make_unique<AutomaticStructural>(d, n);
}

}  // namespace

MBS_REGISTER_ELEMENT_RUNTIME("structural", "automatic", make);

}  // namespace mbs
