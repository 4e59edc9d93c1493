// The one adapter from a module's element type (C callbacks) to the core Element interface.
//
// Unknown groups: the element's own unknowns q (group MBS_OWN) and, per connected structural
// node k, the node's kinematic variables (x, theta, v, w). The module gives its residual as
// own rows r_q and the force/moment (F_k, M_k) it applies to each node, and its Jacobian as
// partial derivatives with respect to those variables. This adapter assembles them exactly like
// the built-in elements:
//   own columns, differential q_j:  J(:, j) = dr/dqdot_j + dCoef dr/dq_j
//   own columns, algebraic  q_j:    J(:, j) = dr/dq_j           (the value sits in the y' slot)
//   node k columns (x, g):          [dr/dv + dCoef dr/dx,  (dr/dw + dCoef dr/dtheta) G + dCoef
//   dr/dw Gd]
// which is StructNode::chain() (w = G(g) g', dtheta = G dg) with the row count of the group.
// Blocks are declared once for the couplings the module declared (all pairs by default); the
// partial-derivative buffers are allocated here, once, so the Newton loop does not allocate.
#include <algorithm>
#include <variant>

#include "core/plugin/plugin_internal.hpp"
#include "core/struct_node.hpp"

namespace mbs::plugin {
// What mbs_jacobian_api::add reaches: the element's partial-derivative buffers.
class PluginElementAccess {
  public:
    virtual ~PluginElementAccess() = default;
    virtual int add(int row_group, int col_group, int wrt, const double* block) = 0;
};
}  // namespace mbs::plugin

struct mbs_jacobian {
    mbs::plugin::PluginElementAccess* el = nullptr;
};

namespace mbs::plugin {

namespace {

using Dyn = Eigen::MatrixXd;
using LawAny = std::variant<LawPtr<1>, LawPtr<3>, LawPtr<6>>;

class PluginElement final : public Element, public PluginElementAccess {
  public:
    PluginElement(const EntityDesc& d, BuildContext& ctx)
        : Element(d), rec_(&element_record(d.spec_as<PluginElementSpec>().record)) {
        const auto& spec = d.spec_as<PluginElementSpec>();
        const auto* entry = find_type<mbs_element_type>(d.type);
        host_ = entry ? entry->host : nullptr;
        type_ = rec_->type;
        n_own_ = rec_->n_own;
        for (int k = 0; k < rec_->n_nodes; ++k)
            nodes_.push_back(&ctx.struct_node(spec.nodes[static_cast<std::size_t>(k)], d));
        for (const auto& ds : spec.drives) drives_.push_back(make_drive(*ds, ctx.drive_env()));
        for (const auto& ls : spec.laws) {
            const LawSpec& s = *ls;
            LawEnv env{ctx.drive_env()};
            if (s.dim == 1)
                laws_.emplace_back(make_law<1>(s, env));
            else if (s.dim == 3)
                laws_.emplace_back(make_law<3>(s, env));
            else
                laws_.emplace_back(make_law<6>(s, env));
        }
        const int G = groups();
        pair_of_.assign(static_cast<std::size_t>(G) * G, -1);
        auto want = [&](int rg, int cg) {
            int& slot = pair_of_[(rg + 1) * G + (cg + 1)];
            if (slot >= 0) return;
            slot = static_cast<int>(pairs_.size());
            Pair p;
            p.rg = rg, p.cg = cg;
            p.nr = rg < 0 ? n_own_ : 6;
            const int nc = cg < 0 ? n_own_ : 3;
            for (auto& m : p.D) m.setZero(p.nr, nc);
            p.out.setZero(p.nr, cg < 0 ? n_own_ : 6);
            pairs_.push_back(std::move(p));
        };
        if (rec_->couple.empty()) {
            for (int rg = n_own_ ? -1 : 0; rg < rec_->n_nodes; ++rg)
                for (int cg = n_own_ ? -1 : 0; cg < rec_->n_nodes; ++cg) want(rg, cg);
        } else {
            for (auto [rg, cg] : rec_->couple) want(rg, cg);
        }
        q_.assign(n_own_, 0.0), qdot_.assign(n_own_, 0.0);
        node_state_.resize(nodes_.size());
        r_buf_.assign(n_own_ + 6 * nodes_.size(), 0.0);
        run_.host = this;
        run_.drive_value = &drive_value;
        run_.drive_deriv = &drive_deriv;
        run_.law = &law_eval;
        state_.run = &run_;
        state_.n_own = n_own_;
        state_.q = q_.data();
        state_.qdot = qdot_.data();
        state_.n_nodes = static_cast<int>(nodes_.size());
        state_.nodes = node_state_.data();
        jac_.el = this;
        clock_ = ctx.drive_env().clock;
        if (type_->private_data &&
            (type_->n_private < 0 || (type_->n_private > 0 && !type_->private_names)))
            ctx.error(d,
                      "module element type '" + d.type + "' declares private data without names");
        inst_ = type_->create ? type_->create(rec_->data) : rec_->data;
        if (type_->create && !inst_)
            ctx.error(d, "module element type '" + d.type + "' could not create its instance");
    }
    ~PluginElement() override {
        if (type_->create && type_->destroy && inst_) type_->destroy(inst_);
    }

    int own_dofs() const override { return n_own_; }
    void initialize(double* y, double* yp) const override {
        if (!type_->initial || n_own_ == 0) return;
        std::fill(q_.begin(), q_.end(), 0.0);
        std::fill(qdot_.begin(), qdot_.end(), 0.0);
        type_->initial(inst_, q_.data(), qdot_.data());
        for (int i = 0; i < n_own_; ++i) {
            const int k = first_dof() + i;
            if (rec_->differential[i])
                y[k] = q_[i], yp[k] = qdot_[i];
            else
                yp[k] = q_[i];
        }
    }
    DofOrder own_dof_order(int i) const override {
        return rec_->differential[i] ? DofOrder::differential : DofOrder::algebraic;
    }
    std::string own_dof_name(int i) const override {
        return "module equation " + std::to_string(i + 1);
    }

    void declare(PatternBuilder& p) override {
        for (auto& pr : pairs_) {
            auto [r0, nr] = rows_of(pr.rg);
            auto [c0, nc] = rows_of(pr.cg);
            pr.block = p.block(r0, nr, c0, nc);
        }
    }

    void residual(const StepContext& c, const StateView& s, double* r) const override {
        fill(c, s);
        std::fill(r_buf_.begin(), r_buf_.end(), 0.0);
        type_->residual(inst_, &state_, r_buf_.data());
        for (int i = 0; i < n_own_; ++i) r[first_dof() + i] += r_buf_[i];
        for (std::size_t k = 0; k < nodes_.size(); ++k) {
            const double* f = r_buf_.data() + n_own_ + 6 * k;
            double* p = r + nodes_[k]->first_dof();
            for (int i = 0; i < 3; ++i) p[i] += f[i];
            if (nodes_[k]->has_rotation())
                for (int i = 0; i < 3; ++i) p[3 + i] += f[3 + i];
        }
    }

    void jacobian(const StepContext& c, const StateView& s, Jacobian& J) const override {
        fill(c, s);
        for (auto& pr : pairs_)
            for (auto& m : pr.D) m.setZero();
        type_->jacobian(inst_, &state_, host_, &jac_);
        for (auto& pr : pairs_) {
            if (pr.cg < 0) {
                for (int j = 0; j < n_own_; ++j)
                    for (int i = 0; i < pr.nr; ++i)
                        pr.out(i, j) = rec_->differential[j]
                                           ? pr.D[1](i, j) + c.dCoef * pr.D[0](i, j)
                                           : pr.D[0](i, j);
            } else {
                // Explicit loops: fixed 3 x 3 factors, no temporaries.
                const StructNode& n = *nodes_[pr.cg];
                const Dyn &Dx = pr.D[MBS_D_X], &Dth = pr.D[MBS_D_THETA], &Dv = pr.D[MBS_D_V],
                          &Dw = pr.D[MBS_D_W];
                for (int i = 0; i < pr.nr; ++i)
                    for (int j = 0; j < 3; ++j) {
                        double g = 0.0;
                        for (int m = 0; m < 3; ++m)
                            g += (Dw(i, m) + c.dCoef * Dth(i, m)) * n.G(m, j) +
                                 c.dCoef * Dw(i, m) * n.Gd(m, j);
                        pr.out(i, j) = Dv(i, j) + c.dCoef * Dx(i, j);
                        pr.out(i, 3 + j) = g;
                    }
            }
            J.add(pr.block, pr.out);
        }
    }

    int add(int rg, int cg, int wrt, const double* block) override {
        const int G = groups();
        if (rg < -1 || rg >= G - 1 || cg < -1 || cg >= G - 1) return MBS_ERROR;
        int k = pair_of_[(rg + 1) * G + (cg + 1)];
        if (k < 0) return MBS_ERROR;
        Pair& pr = pairs_[k];
        int slot;
        if (cg < 0) {
            if (wrt != MBS_D_Q && wrt != MBS_D_QDOT) return MBS_ERROR;
            slot = wrt == MBS_D_Q ? 0 : 1;
        } else {
            if (wrt < MBS_D_X || wrt > MBS_D_W) return MBS_ERROR;
            slot = wrt;
        }
        Dyn& D = pr.D[slot];
        for (int i = 0; i < D.rows(); ++i)
            for (int j = 0; j < D.cols(); ++j) D(i, j) += block[i * D.cols() + j];
        return MBS_OK;
    }

    void after_step(const StepContext& c, const StateView& s) override {
        fill(c, s);
        for (const auto& d : drives_) d->after_step();
        if (type_->after_step) type_->after_step(inst_, &state_);
    }

    int private_data_count() const override { return type_->private_data ? type_->n_private : 0; }
    const char* private_data_name(int i) const override { return type_->private_names[i]; }
    double private_data(int i, const StateView& s) const override {
        StepContext c{clock_ ? clock_->time : run_.time, clock_ ? clock_->timestep : run_.dt,
                      run_.dCoef, Phase::dynamic};
        fill(c, s);
        return type_->private_data(inst_, &state_, i);
    }

    const char* output_file() const override { return type_->output ? "usr" : nullptr; }
    int output_values(double* v) const override {
        if (!type_->output) return 0;
        int n = type_->output(inst_, &state_, v, max_output_values);
        return std::clamp(n, 0, max_output_values);
    }
    // NetCDF/HDF5: the values of the .usr line as one quantity, MBDyn's elem.loadable.<L>.output,
    // as many components as the line has at the start (the group takes the longest line's
    // width; shorter lines are padded with NaN). None if the line is empty.
    bool output_schema(OutputSchema& s) const override {
        double v[max_output_values];
        const int nv = output_file() ? output_values(v) : 0;
        if (nv <= 0) return false;
        s.group = "user_defined";
        s.nc_prefix = "elem.loadable";
        s.order = 110;
        s.quantities = {{"output", nv, "-", "",
                         "values of the element's .usr line (meaning defined by its module)", 0}};
        return true;
    }

  private:
    struct Pair {
        int rg = 0, cg = 0, nr = 0;
        BlockId block = -1;
        // Node columns: d/dx, d/dtheta, d/dv, d/dw; own columns: d/dq, d/dqdot.
        Dyn D[4];
        Dyn out;
    };

    int groups() const { return rec_->n_nodes + 1; }
    std::pair<int, int> rows_of(int g) const {
        if (g < 0) return {first_dof(), n_own_};
        return {nodes_[g]->first_dof(), nodes_[g]->pos_cols()};
    }

    void fill(const StepContext& c, const StateView& s) const {
        run_.time = c.time, run_.dt = c.dt, run_.dCoef = c.dCoef;
        for (int i = 0; i < n_own_; ++i) {
            const int k = first_dof() + i;
            if (rec_->differential[i])
                q_[i] = s.y[k], qdot_[i] = s.yp[k];
            else
                q_[i] = s.yp[k], qdot_[i] = 0.0;
        }
        for (std::size_t k = 0; k < nodes_.size(); ++k) {
            const StructNode& n = *nodes_[k];
            mbs_node_state& o = node_state_[k];
            for (int i = 0; i < 3; ++i) {
                o.x[i] = n.x[i], o.v[i] = n.xdot[i], o.w[i] = n.w[i];
                for (int j = 0; j < 3; ++j) o.R[3 * i + j] = n.R(i, j);
            }
        }
    }

    static const PluginElement& self(const mbs_run* r) {
        return *static_cast<const PluginElement*>(r->host);
    }
    static double drive_value(const mbs_run* r, int i, double x) {
        const auto& d = self(r).drives_;
        return i >= 0 && i < static_cast<int>(d.size()) ? d[i]->value(x) : 0.0;
    }
    static double drive_deriv(const mbs_run* r, int i, double x) {
        const auto& d = self(r).drives_;
        return i >= 0 && i < static_cast<int>(d.size()) ? d[i]->deriv(x) : 0.0;
    }
    // Law i of the card; a call with the wrong dimension gives zeros.
    static void law_eval(const mbs_run* r, int i, int dim, const double* eps, const double* epsdot,
                         double* F, double* K, double* C) {
        const auto& laws = self(r).laws_;
        std::fill(F, F + dim, 0.0);
        std::fill(K, K + dim * dim, 0.0);
        std::fill(C, C + dim * dim, 0.0);
        if (i < 0 || i >= static_cast<int>(laws.size())) return;
        std::visit(
            [&](const auto& law) {
                using L = typename std::decay_t<decltype(law)>::element_type;
                using V = typename L::V;
                using M = typename L::M;
                if (V::RowsAtCompileTime != dim) return;
                V f;
                M k, c;
                law->eval(Eigen::Map<const V>(eps), Eigen::Map<const V>(epsdot), r->time, f, k, c);
                constexpr int N = V::RowsAtCompileTime;
                using RowM = Eigen::Matrix<double, N, N, Eigen::RowMajor>;
                Eigen::Map<V> Fm(F);
                Eigen::Map<RowM> Km(K), Cm(C);
                Fm = f, Km = k, Cm = c;
            },
            laws[i]);
    }

    const ElementRecord* rec_;
    const mbs_element_type* type_ = nullptr;
    const mbs_host* host_ = nullptr;
    const SimClock* clock_ = nullptr;
    void* inst_ = nullptr;
    int n_own_ = 0;
    std::vector<StructNode*> nodes_;
    std::vector<DrivePtr> drives_;
    std::vector<LawAny> laws_;
    std::vector<int> pair_of_;
    mutable std::vector<Pair> pairs_;
    mutable std::vector<double> q_, qdot_, r_buf_;
    mutable std::vector<mbs_node_state> node_state_;
    mutable mbs_run run_{};
    mutable mbs_element_state state_{};
    mutable mbs_jacobian jac_;
};

int jac_add(mbs_jacobian* J, int rg, int cg, int wrt, const double* block) {
    if (!J || !J->el || !block) return MBS_ERROR;
    return J->el->add(rg, cg, wrt, block);
}

}  // namespace

const mbs_jacobian_api* jacobian_api() {
    static const mbs_jacobian_api api = {jac_add};
    return &api;
}

std::unique_ptr<Element> make_user_defined(const EntityDesc& d, BuildContext& ctx) {
    return std::make_unique<PluginElement>(d, ctx);
}

}  // namespace mbs::plugin
