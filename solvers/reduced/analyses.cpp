// Tree report, reduced direct dynamics, static equilibrium and modal analysis.
#include "solvers/reduced/analyses.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <numeric>
#include <ostream>
#include <stdexcept>

#include "core/rotations.hpp"
#include "solvers/reduced/reactions.hpp"
#include "solvers/reduced/tree_nodes.hpp"

namespace mbs::reduced {

namespace {
std::string coord_name(const ReducedModel& rm, int i) {
    const Link& l = rm.links[static_cast<std::size_t>(i)];
    char b[64];
    std::snprintf(b, sizeof b, "q%d %s of ", i + 1, l.name.c_str());
    std::string s = b;
    if (l.joint_label) {
        std::snprintf(b, sizeof b, "joint %ld (", l.joint_label);
        s.append(b).append(l.joint_type).append(")");
    } else {
        s.append("free node");
    }
    return s;
}
}  // namespace

SourceLoc coordinate_loc(const Model& model, const ReducedModel& rm, int i) {
    const Link& l = rm.links[static_cast<std::size_t>(i)];
    if (l.joint_label != 0) {
        if (const EntityDesc* e = model.find_element("joint", l.joint_label)) return e->loc;
    }
    // A free node's coordinates, or a fictitious link: the card of the node it leads to.
    for (std::size_t k = static_cast<std::size_t>(i); k < rm.links.size(); ++k) {
        const Link& n = rm.links[k];
        if (n.node_label >= 0 && n.joint_label == l.joint_label) {
            if (const EntityDesc* e = model.find_node("structural", n.node_label)) return e->loc;
            break;
        }
    }
    return model.nodes.empty() ? SourceLoc{} : model.nodes.front().loc;
}

void check_inertia(const Model& model, Setup& s, const char* analysis) {
    const int nu = static_cast<int>(s.part.u.size());
    if (nu == 0) return;
    VecX q = s.q, qd = s.qd, qdd = VecX::Zero(s.rm.nq());
    ReducedState rs;
    reduced_accelerations(s.rm, s.ws, s.part, q, qd, s.t0, qdd, rs);
    // Relative to the largest entry of the full mass matrix (0 when nothing has mass).
    const double scale = s.ws.M.size() ? s.ws.M.cwiseAbs().maxCoeff() : 0.0;
    for (int j = 0; j < nu; ++j) {
        if (!(rs.Mr(j, j) <= 1e-13 * scale)) continue;
        const int i = s.part.u[static_cast<std::size_t>(j)];
        throw InputError(
            coordinate_loc(model, s.rm, i),
            std::string(analysis) + ": the free coordinate " + coord_name(s.rm, i) +
                " moves no mass or inertia: the reduced mass matrix is singular",
            "give the bodies it moves a mass and inertia (a 'body' card on its node), or hold "
            "the coordinate with a joint or a drive; 'mbsolve --tree DECK' lists the "
            "coordinates");
    }
}

std::unique_ptr<Setup> make_setup(const Model& model, const std::vector<int>& independent) {
    auto s = std::make_unique<Setup>();
    s->t0 = model.solver.t0();
    s->clock.time = s->t0;
    s->rm = build_reduced_model(model, &s->clock);
    s->rm.clock = &s->clock;
    s->ws = make_workspace(s->rm);
    const int nq = s->rm.nq();
    s->q = Eigen::Map<const VecX>(s->rm.q0.data(), nq);
    forward_kinematics(s->rm, s->ws, s->q, s->ws.zero, s->ws.zero);
    constraints(s->rm, s->ws);
    s->part = make_partition(s->rm, s->ws.J);
    driven_positions(s->rm, s->part, s->t0, s->q);
    if (!solve_positions(s->rm, s->ws, s->part, s->q, 1e-12))
        throw ReducedFailure(
            "the loop constraints cannot be satisfied near the deck's initial configuration");
    constraints(s->rm, s->ws);
    if (independent.empty())
        repartition_columns(s->rm, s->ws.J, s->part);
    else
        propose_partition(s->rm, s->ws.J, s->part, independent);
    s->qd = fit_velocities(s->rm, s->ws, s->q, s->t0);
    set_dependent_velocities(s->rm, s->ws, s->part, s->q, s->qd, s->t0);
    return s;
}

void print_tree(const Model& model, const Setup& s, std::ostream& out) {
    const ReducedModel& rm = s.rm;
    out << "relative-coordinate model of " << model.deck_path << "\n";
    int nb = 0;
    for (const Link& l : rm.links) nb += l.mass > 0 || !l.inertia.isZero(0.0);
    out << "bodies: " << nb << "\n";
    for (int i = 0; i < rm.nq(); ++i) {
        const Link& l = rm.links[static_cast<std::size_t>(i)];
        if (l.mass == 0 && l.inertia.isZero(0.0)) continue;
        out << "  node " << l.node_label << " on q" << i + 1 << ": mass " << l.mass
            << ", centre of mass [" << l.com.transpose() << "]\n";
    }
    out << "joints (tree):\n";
    for (int i = 0; i < rm.nq(); ++i) {
        const Link& l = rm.links[static_cast<std::size_t>(i)];
        if (l.node_label < 0) continue;
        int first = i;
        while (first > 0 && rm.links[static_cast<std::size_t>(first - 1)].node_label < 0 &&
               rm.links[static_cast<std::size_t>(first - 1)].joint_label == l.joint_label &&
               rm.links[static_cast<std::size_t>(first - 1)].joint_type == l.joint_type)
            --first;
        const int parent = rm.links[static_cast<std::size_t>(first)].parent;
        out << "  "
            << (l.joint_label ? "joint " + std::to_string(l.joint_label) : std::string("free"))
            << " (" << l.joint_type << "): "
            << (parent < 0 ? std::string("ground")
                           : "node " + std::to_string(
                                           rm.links[static_cast<std::size_t>(parent)].node_label))
            << " -> node " << l.node_label << ", coordinates q" << first + 1;
        if (i > first) out << "..q" << i + 1;
        out << "\n";
    }
    out << "coordinates: " << rm.nq() << "\n";
    for (int i = 0; i < rm.nq(); ++i) {
        const Link& l = rm.links[static_cast<std::size_t>(i)];
        const bool dep = std::find(s.part.v.begin(), s.part.v.end(), i) != s.part.v.end();
        out << "  " << coord_name(rm, i)
            << (l.node_label >= 0 ? ", node " + std::to_string(l.node_label)
                                  : std::string(", fictitious"))
            << ": "
            << (l.driven ? "driven"
                : dep    ? "dependent"
                         : "independent")
            << ", q0 = " << s.q[i] << "\n";
    }
    out << "cuts: " << rm.cuts.size() << "\n";
    auto side = [&](int link) {
        return link < 0
                   ? std::string("ground")
                   : "node " + std::to_string(rm.links[static_cast<std::size_t>(link)].node_label);
    };
    for (const Cut& c : rm.cuts)
        out << "  joint " << c.label << " (" << c.type << "): " << c.rows << " equation"
            << (c.rows > 1 ? "s" : "") << ", " << side(c.link_a) << " -- " << side(c.link_b)
            << "\n";
    const int nf = rm.nq() - static_cast<int>(s.part.c.size());
    if (s.part.user)
        out << "partition: proposed by the user (J_v pivot ratio " << s.part.pivot_ratio << ")\n";
    out << "constraints: " << rm.n_constraints << ", rank " << s.part.rows.size() << "\n";
    out << "driven variables: " << s.part.c.size() << "\n";
    out << "degrees of freedom: " << nf - static_cast<int>(s.part.rows.size()) << "\n";
    if (!s.part.redundant_rows.empty()) {
        out << "redundant constraints: " << s.part.redundant_rows.size() << " (joints ";
        for (std::size_t k = 0; k < s.part.redundant_joints.size(); ++k)
            out << (k ? ", " : "") << s.part.redundant_joints[k];
        out << ")\n";
    }
}

namespace {

// Which steps are output: those where the deck's `output meter` is non-zero, else every
// `output frequency`-th (the drive reads the clock: set it to t first).
class OutputSelector {
  public:
    OutputSelector(const Model& model, SimClock& clock) {
        DriveEnv env;
        env.clock = &clock;
        env.model = &model;
        if (model.control.output_meter.given())
            meter_ = make_drive(*model.control.output_meter.value, env);
        every_ = model.control.output_frequency.value_or(1);
    }
    bool operator()(long k, double t) const {
        return meter_ ? meter_->value(t) != 0.0 : (every_ <= 1 || k % every_ == 0);
    }

  private:
    DrivePtr meter_;
    long every_ = 1;
};

double violation(const Workspace& ws) { return ws.h.size() ? ws.h.lpNorm<Eigen::Infinity>() : 0.0; }

// A step's record on this path: no Newton iterations to report; the constraint violation |h|
// as the residual.
StepInfo step_info(long k, double t, double dt, const Workspace& ws, bool output) {
    StepInfo info;
    info.step = k;
    info.time = t;
    info.dt = dt;
    info.res_err = violation(ws);
    info.sol_conv = true;
    info.output = output;
    return info;
}

}  // namespace

namespace {

// The time loop of run_reduced_dynamics: the state q, qd, the partition and every buffer the
// steps use, sized once (style rule 1).
class DynamicsLoop {
  public:
    DynamicsLoop(Setup& s, ReducedMethod method, double rho, double dt, double tol)
        : s_(s),
          rm_(s.rm),
          ws_(s.ws),
          p_(s.part),
          method_(method),
          dt_(dt),
          tol_(tol),
          nu_(static_cast<int>(p_.u.size())),
          nc_(static_cast<int>(p_.c.size())),
          ny_(2 * nu_ + nc_),
          q(s.q),
          qd(s.qd),
          qdd_(VecX::Zero(rm_.nq())),
          y_(ny_),
          k1_(ny_),
          k2_(ny_),
          k3_(ny_),
          k4_(ny_),
          ys_(ny_),
          qs_(q),
          qds_(qd),
          qdd0_(rm_.nq()),
          qds0_(rm_.nq()),
          qr_(q),
          qdr_(qd),
          qddr_(VecX::Zero(rm_.nq())),
          prev_v_(p_.v),
          y_prev_(ny_),
          yd_prev_(ny_),
          yd1_(ny_),
          known_(ny_),
          z_(ny_),
          fz_(ny_),
          dz_(ny_),
          yk_(ny_),
          fp_(ny_),
          fm_(ny_),
          Jn_(ny_, ny_),
          ca1_(4 * (1 - rho) / (3 - rho)),
          ca2_((3 * rho - 1) / (3 - rho)),
          b0m_(2 * dt / ((1 + rho) * (3 - rho))),
          b1m_(4 * rho * dt / ((1 + rho) * (3 - rho))),
          b2m_(2 * rho * rho * dt / ((1 + rho) * (3 - rho))) {}

    // One step from t to tn: the dependent set for the current configuration, then a
    // full-coordinate step near a singular configuration, else a two-step or RK4 step.
    void step(double t, double tn, DynamicsStats& st) {
        if (singular(st)) {
            full_step(t, tn);
            ++st.full_steps;
            have_prev_ = false;
        } else if (method_ == ReducedMethod::two_step) {
            if (p_.v != prev_v_) have_prev_ = false;
            prev_v_ = p_.v;
            two_step(t, tn);
        } else {
            rk4_step(t, tn);
        }
    }

  private:
    // Dependent coordinates for the current configuration: the best-conditioned J_v, kept unless
    // the current one has become ten times worse (no flip-flop between equals). True when J_v is
    // nearly singular.
    bool singular(DynamicsStats& st) {
        bool near = false;
        if (!p_.v.empty() && p_.user) {
            forward_kinematics(rm_, ws_, q, ws_.zero, ws_.zero);
            constraints(rm_, ws_);
            near = pivot_ratio_of(ws_.J, p_) < singular_pivot_ratio;
        } else if (!p_.v.empty()) {
            forward_kinematics(rm_, ws_, q, ws_.zero, ws_.zero);
            constraints(rm_, ws_);
            const double current = pivot_ratio_of(ws_.J, p_);
            Partition best = p_;
            repartition_columns(rm_, ws_.J, best);
            if (best.pivot_ratio > 10.0 * current && best.v != p_.v) {
                p_ = best;
                ++st.repartitions;
            }
            near = std::max(current, best.pivot_ratio) < singular_pivot_ratio;
        }
        return near;
    }

    // Stage state y = (q_u, qd_u, q_c); its rate (qd_u, qdd_u, qd_c).
    void gather(const VecX& qq, const VecX& qqd, VecX& out) const {
        for (int j = 0; j < nu_; ++j)
            out[j] = qq[p_.u[static_cast<std::size_t>(j)]],
            out[nu_ + j] = qqd[p_.u[static_cast<std::size_t>(j)]];
        for (int j = 0; j < nc_; ++j) out[2 * nu_ + j] = qq[p_.c[static_cast<std::size_t>(j)]];
    }
    // Full state from y: q_v by Newton (starting from the last q), qd_v, qd_c in
    // reduced_accelerations.
    void scatter(const VecX& yy, double t, VecX& qq, VecX& qqd) {
        for (int j = 0; j < nu_; ++j)
            qq[p_.u[static_cast<std::size_t>(j)]] = yy[j],
            qqd[p_.u[static_cast<std::size_t>(j)]] = yy[nu_ + j];
        for (int j = 0; j < nc_; ++j) qq[p_.c[static_cast<std::size_t>(j)]] = yy[2 * nu_ + j];
        s_.clock.time = t;
        driven_positions(rm_, p_, t, qq);  // position-level drives: q_c = f(t), not integrated
        if (!solve_positions(rm_, ws_, p_, qq, tol_))
            throw ReducedFailure(
                "Newton-Raphson on the dependent coordinates did not converge at t = " +
                std::to_string(t));
    }
    void rate(double t, const VecX& yy, VecX& out) {
        scatter(yy, t, qs_, qds_);
        reduced_accelerations(rm_, ws_, p_, qs_, qds_, t, qdd_, rs_);
        for (int j = 0; j < nu_; ++j)
            out[j] = qds_[p_.u[static_cast<std::size_t>(j)]],
            out[nu_ + j] = qdd_[p_.u[static_cast<std::size_t>(j)]];
        for (int j = 0; j < nc_; ++j) out[2 * nu_ + j] = qds_[p_.c[static_cast<std::size_t>(j)]];
    }

    // Full-coordinate steps (used where J_v is nearly singular): RK4 on the index-1 ODE
    // qdd = f(q, qd, t) (full_accelerations), which is defined off the constraint manifold as well
    // and keeps h'' = 0, only the step's result projected (projecting the stage states replaces
    // RK4's stages by points of a map whose derivative grows like 1/sigma near a singular
    // configuration). SingularStepper (partition.hpp) places the stages away from the singular
    // point itself.
    void full_step(double t, double tn) {
        if (!crossing_.step(rm_, ws_, p_, q, qd, t, tn, tol_))
            throw ReducedFailure("projection onto the constraints did not converge at t = " +
                                 std::to_string(tn));
        s_.clock.time = tn;
    }

    // Two-step method: history y_{k-2}, y'_{k-2} (valid while the dependent set is unchanged).
    void two_step(double t, double tn) {
        const double dt = dt_;
        gather(q, qd, y_);
        qs_ = q;
        qds_ = qd;
        rate(t, y_, yd1_);
        double b0;
        if (have_prev_) {
            b0 = b0m_;
            known_ = ca1_ * y_ + ca2_ * y_prev_ + b1m_ * yd1_ + b2m_ * yd_prev_;
            z_ = 2.0 * yd1_ - yd_prev_;
        } else {  // Crank-Nicolson
            b0 = 0.5 * dt;
            known_ = y_ + 0.5 * dt * yd1_;
            z_ = yd1_;
        }
        // Jacobian of f at the step's start, central differences (each state made consistent).
        for (int j = 0; j < ny_; ++j) {
            const double h = 1e-6 * (1.0 + std::abs(y_[j]));
            ys_ = y_;
            ys_[j] += h;
            qs_ = q;
            rate(t, ys_, fp_);
            ys_[j] -= 2 * h;
            qs_ = q;
            rate(t, ys_, fm_);
            Jn_.col(j) = -b0 * (fp_ - fm_) / (2 * h);
            Jn_(j, j) += 1.0;
        }
        Eigen::PartialPivLU<MatX> lu(Jn_);
        bool converged = false;
        for (int it = 0; it < 30 && !converged; ++it) {
            yk_ = known_ + b0 * z_;
            qs_ = q + (tn - t) * qd;
            rate(tn, yk_, fz_);
            dz_ = lu.solve(fz_ - z_);
            z_ += dz_;
            converged =
                dz_.lpNorm<Eigen::Infinity>() <= 1e-10 * (1.0 + z_.lpNorm<Eigen::Infinity>());
        }
        if (!converged)
            throw ReducedFailure("two-step method: Newton did not converge at t = " +
                                 std::to_string(tn));
        y_prev_ = y_;
        yd_prev_ = yd1_;
        have_prev_ = true;
        y_ = known_ + b0 * z_;
        qs_ = q + (tn - t) * qd;
        scatter(y_, tn, qs_, qds_);
        q = qs_;
        qd = qds_;
        set_dependent_velocities(rm_, ws_, p_, q, qd, tn);
    }

  public:
    // The loop multipliers and the driven coordinates' forces at the current state
    // (reactions.hpp): qdd from the reduced equations at (q, qd, t), Phi = M qdd + c - Q by
    // Newton-Euler, then lambda and tau_c. Leaves ws at (q, qd, qdd); the state is not changed.
    void reactions(double t, Reactions& r) {
        qr_ = q;
        qdr_ = qd;
        s_.clock.time = t;
        reduced_accelerations(rm_, ws_, p_, qr_, qdr_, t, qddr_, rs_);
        forward_kinematics(rm_, ws_, qr_, qdr_, qddr_);
        compute_loads(rm_, ws_, t);
        inverse_dynamics(rm_, ws_);
        constraints(rm_, ws_);
        r.compute(rm_, ws_, p_);
    }

  private:
    void rk4_step(double t, double tn) {
        const double dt = dt_;
        gather(q, qd, y_);
        qs_ = q;
        qds_ = qd;
        rate(t, y_, k1_);
        // Newton for q_v starts from the Taylor prediction q + tau qd + tau^2/2 qdd: near a
        // bifurcation (two branches crossing) it stays on the branch the motion follows.
        qdd0_ = qdd_;
        auto predict = [&](double tau) { qs_ = q + tau * qds0_ + 0.5 * tau * tau * qdd0_; };
        qds0_ = qds_;
        ys_ = y_ + 0.5 * dt * k1_;
        predict(0.5 * dt);
        rate(t + 0.5 * dt, ys_, k2_);
        ys_ = y_ + 0.5 * dt * k2_;
        predict(0.5 * dt);
        rate(t + 0.5 * dt, ys_, k3_);
        ys_ = y_ + dt * k3_;
        predict(dt);
        rate(tn, ys_, k4_);
        y_ += dt / 6.0 * (k1_ + 2.0 * k2_ + 2.0 * k3_ + k4_);
        predict(dt);
        scatter(y_, tn, qs_, qds_);
        q = qs_;
        qd = qds_;
        set_dependent_velocities(rm_, ws_, p_, q, qd, tn);
    }

    Setup& s_;
    const ReducedModel& rm_;
    Workspace& ws_;
    Partition& p_;
    const ReducedMethod method_;
    const double dt_, tol_;
    const int nu_, nc_, ny_;

  public:
    VecX q, qd;

  private:
    VecX qdd_;
    ReducedState rs_;
    VecX y_, k1_, k2_, k3_, k4_, ys_;
    VecX qs_, qds_;
    VecX qdd0_, qds0_;
    VecX qr_, qdr_, qddr_;  // reactions()
    SingularStepper crossing_;
    bool have_prev_ = false;
    std::vector<int> prev_v_;
    VecX y_prev_, yd_prev_, yd1_, known_, z_, fz_, dz_, yk_, fp_, fm_;
    MatX Jn_;
    const double ca1_, ca2_, b0m_, b1m_, b2m_;
};

}  // namespace

DynamicsStats run_reduced_dynamics(const Model& model, Setup& s, RunOutput& output,
                                   ReducedMethod method, double rho, double tol,
                                   const StopRequest* stop) {
    if (model.solver.forever())
        throw InputError(model.solver.final_time.loc,
                         "reduced dynamics needs a finite 'final time'",
                         "give the time to stop at; 'forever' (run until stopped) is for the "
                         "time integration without --analysis");
    const double t0 = s.t0, tf = model.solver.tf_or(t0);
    const double dt = model.solver.dt();
    const ReducedModel& rm = s.rm;
    Workspace& ws = s.ws;
    const OutputSelector selector(model, s.clock);
    auto is_output = [&](long k, double t) {
        s.clock.time = t;
        return selector(k, t);
    };

    RunSettings settings;
    settings.method =
        method == ReducedMethod::rk4 ? "rk4 (relative coordinates)" : "ms (relative coordinates)";
    settings.rho = settings.rho_algebraic = method == ReducedMethod::rk4 ? 0.0 : rho;
    settings.initial_time = t0;
    settings.final_time = tf;
    settings.time_step = dt;
    settings.tolerance = tol;
    OutputSink& out = output.open(settings);
    TreeNodes nodes(model, rm);
    // The driven coordinates' forces (PREFIX.act) and the loop multipliers (PREFIX.lam), with
    // their NetCDF and HDF5 groups, as inverse dynamics writes them (reactions.hpp).
    ReactionBlocks blocks(rm, s.part);
    Reactions reactions(rm, s.part);
    StepView view = nodes.view();
    view.blocks = blocks.list;
    DynamicsStats st;
    DynamicsLoop loop(s, method, rho, dt, tol);
    // The step's record (step_info()), the reactions on output steps, then the sinks.
    auto emit = [&](long k, double t) {
        StepInfo info = step_info(k, t, dt, ws, is_output(k, t));
        if (info.output && !blocks.list.empty()) {
            loop.reactions(t, reactions);
            blocks.fill(rm, ws, s.part, reactions);
            st.max_balance = std::max(st.max_balance, reactions.balance());
        }
        nodes.update(rm, ws);
        out.step(view, info);
    };
    out.begin(view);
    try {
        forward_kinematics(rm, ws, loop.q, loop.qd, ws.zero);
        constraints(rm, ws);
        st.max_violation = violation(ws);
        s.clock.time = t0;
        emit(0, t0);

        const long nsteps = static_cast<long>(std::llround((tf - t0) / dt));
        st.t_end = t0;
        for (long k = 1; k <= nsteps; ++k) {
            const double t = t0 + static_cast<double>(k - 1) * dt,
                         tn = t0 + static_cast<double>(k) * dt;
            if (stop && stop->asked()) {
                st.stopped = true;
                break;
            }
            loop.step(t, tn, st);
            forward_kinematics(rm, ws, loop.q, loop.qd, ws.zero);
            constraints(rm, ws);
            st.max_violation = std::max(st.max_violation, violation(ws));
            emit(k, tn);
            ++st.steps;
            st.t_end = tn;
        }
    } catch (const std::exception& e) {
        out.end(view, e.what());  // every file closed; .out ends with the reason
        throw;
    }
    // A stop's reason and time are added by the caller's sinks (mbsolve's), as for the DAE.
    out.end(view, "");
    s.q = loop.q;
    s.qd = loop.qd;
    return st;
}

// Linearization at the steady state (q*, qd*) (qd* = 0, or qd*_u = rate on the spinning
// coordinate; qdd*_u = 0 there): f(q_u, qd_u) = qdd_u from the reduced equations, so
//   d(dq_u)/dt = dqd_u,  d(dqd_u)/dt = df/dq_u dq_u + df/dqd_u dqd_u,
// where df/dqd_u holds the damping and, about a steady motion, the gyroscopic (Coriolis) terms,
// and df/dq_u the stiffness with the centrifugal terms; columns by central differences (step
// 1e-5 (1 + |x|), velocities 1e-5 (1 + |qd*|)), each perturbed q made consistent by Newton on q_v
// (1e-14) and qd_v = B_vu qd_u. A cyclic spinning coordinate gives a zero eigenvalue (its
// position) and the rate's perturbation another (the neighbouring steady motions).
ModalResult run_modal(const Model& model, Setup& s, const std::string& prefix,
                      const EquilibriumSpec& spec) {
    ModalResult mr;
    mr.equilibrium = solve_equilibrium(s, spec);
    const Partition& p = s.part;
    const ReducedModel& rm = s.rm;
    const int nu = static_cast<int>(p.u.size()), nq = rm.nq();
    // A fully driven or locked mechanism has nothing to vibrate (and Eigen's eigensolver would be
    // handed a 0 x 0 matrix): an input problem, not a solver failure.
    if (nu == 0)
        throw InputError(nq > 0                ? coordinate_loc(model, rm, 0)
                         : model.nodes.empty() ? SourceLoc{}
                                               : model.nodes.front().loc,
                         "modal analysis: the model has no free degree of freedom (" +
                             std::to_string(nq) + " coordinates, all driven or dependent)",
                         "'mbsolve --tree DECK' lists the coordinates; modes need at least one "
                         "joint coordinate that is neither driven nor fixed by a loop");
    const double t = mr.equilibrium.time;
    auto f = [&](VecX q, VecX qd, VecX& out) {
        if (!solve_positions(rm, s.ws, p, q, 1e-14, 50))
            throw ReducedFailure(
                "modal: Newton-Raphson on the dependent coordinates did not converge");
        out = held_accelerations(s, q, qd, t);
    };
    MatX A = MatX::Zero(2 * nu, 2 * nu);
    A.topRightCorner(nu, nu).setIdentity();
    VecX fp(nu), fm(nu);
    const VecX qd0 = s.qd;
    for (int j = 0; j < nu; ++j) {
        const int c = p.u[static_cast<std::size_t>(j)];
        const double h = 1e-5 * (1.0 + std::abs(s.q[c]));
        VecX qp = s.q, qm = s.q;
        qp[c] += h;
        qm[c] -= h;
        f(qp, qd0, fp);
        f(qm, qd0, fm);
        A.block(nu, j, nu, 1) = (fp - fm) / (2 * h);
        const double hv = 1e-5 * (1.0 + std::abs(qd0[c]));
        VecX vp = qd0, vm = qd0;
        vp[c] += hv;
        vm[c] -= hv;
        f(s.q, vp, fp);
        f(s.q, vm, fm);
        A.block(nu, nu + j, nu, 1) = (fp - fm) / (2 * hv);
    }
    // T at the equilibrium maps du to dq.
    MatX T;
    {
        VecX q = s.q, qd = qd0;
        held_accelerations(s, q, qd, t, &T);
    }

    Eigen::EigenSolver<MatX> es(A);
    const Eigen::VectorXcd lam = es.eigenvalues();
    const Eigen::MatrixXcd V = es.eigenvectors();
    std::vector<int> order(static_cast<std::size_t>(2 * nu));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const double fa = std::abs(lam[a]), fb = std::abs(lam[b]);
        if (fa != fb) return fa < fb;
        return lam[a].imag() < lam[b].imag();
    });
    mr.eigenvalues.resize(2 * nu);
    mr.shapes.resize(nq, 2 * nu);
    for (int k = 0; k < 2 * nu; ++k) {
        const int i = order[static_cast<std::size_t>(k)];
        mr.eigenvalues[k] = lam[i];
        Eigen::VectorXcd shape = T.cast<std::complex<double>>() * V.col(i).head(nu);
        Eigen::Index imax = 0;
        shape.cwiseAbs().maxCoeff(&imax);
        if (std::abs(shape[imax]) > 0) shape /= shape[imax];
        mr.shapes.col(k) = shape;
    }

    std::FILE* fo = std::fopen((prefix + ".modal").c_str(), "w");
    if (!fo) throw std::invalid_argument("cannot write '" + prefix + ".modal'");
    std::fprintf(fo,
                 "# mbsolve modal analysis (relative coordinates) of %s\n"
                 "# equilibrium: %d Newton iterations, |F_r| = %.3g; %d independent coordinates\n"
                 "# eigenvalues of A = [[0, 1], [df/dq_u, df/dqd_u]], sorted by frequency:\n"
                 "# index real imag frequency_Hz damping_percent damped_frequency_Hz\n"
                 "#   frequency_Hz = |lambda|/(2 pi), damping_percent = -100 real/|lambda| (0 if "
                 "lambda = 0),\n"
                 "#   damped_frequency_Hz = |imag|/(2 pi)\n",
                 model.deck_path.c_str(), mr.equilibrium.iterations, mr.equilibrium.residual, nu);
    if (!mr.equilibrium.driving.empty())
        std::fprintf(fo, "# %zu driven coordinate(s) held at their drives' values at t = %.15g\n",
                     mr.equilibrium.driving.size(), t);
    if (mr.equilibrium.spin >= 0)
        std::fprintf(fo, "# steady motion: q%d turning at %.15g (linearized about it)\n",
                     mr.equilibrium.spin + 1, mr.equilibrium.spin_rate);
    for (int k = 0; k < 2 * nu; ++k) {
        const std::complex<double> l = mr.eigenvalues[k];
        const ModalFigures m = modal_figures(l);
        std::fprintf(fo, "%d %.15g %.15g %.15g %.15g %.15g\n", k + 1, l.real(), l.imag(),
                     m.frequency_Hz, m.damping_percent, m.damped_frequency_Hz);
    }
    std::fprintf(
        fo,
        "# mode shapes: 'mode <index>', then one line per coordinate:\n"
        "#   q<i> <joint label> <axis> <modulus> <phase_deg>\n"
        "# (position part of the eigenvector mapped to all coordinates by dq = T dq_u, normalized\n"
        "# so that the largest modulus is 1 with phase 0; joint label 0 = free node)\n");
    for (int k = 0; k < 2 * nu; ++k) {
        std::fprintf(fo, "mode %d\n", k + 1);
        for (int i = 0; i < nq; ++i) {
            const Link& l = rm.links[static_cast<std::size_t>(i)];
            const std::complex<double> z = mr.shapes(i, k);
            std::fprintf(fo, "q%d %ld %s %.15g %.15g\n", i + 1, l.joint_label, l.name.c_str(),
                         std::abs(z), std::abs(z) > 0 ? std::arg(z) * 180.0 / M_PI : 0.0);
        }
    }
    std::fclose(fo);
    return mr;
}

ModalFigures modal_figures(std::complex<double> l) {
    const double mag = std::abs(l);
    ModalFigures m;
    m.frequency_Hz = mag / (2 * M_PI);
    m.damping_percent = mag > 0 && l.real() != 0.0 ? -100.0 * l.real() / mag : 0.0;
    m.damped_frequency_Hz = std::abs(l.imag()) / (2 * M_PI);
    return m;
}

ModalColumns modal_columns(const ModalResult& r, const ReducedModel& rm) {
    ModalColumns c;
    for (const std::complex<double>& l : r.eigenvalues) {
        const ModalFigures m = modal_figures(l);
        c.real.push_back(l.real());
        c.imag.push_back(l.imag());
        c.frequency_Hz.push_back(m.frequency_Hz);
        c.damping_percent.push_back(m.damping_percent);
        c.damped_frequency_Hz.push_back(m.damped_frequency_Hz);
    }
    for (Eigen::Index k = 0; k < r.shapes.cols(); ++k)
        for (Eigen::Index i = 0; i < r.shapes.rows(); ++i) {
            const std::complex<double> z = r.shapes(i, k);
            c.shape_real.push_back(z.real());
            c.shape_imag.push_back(z.imag());
            c.shape_modulus.push_back(std::abs(z));
            c.shape_phase_deg.push_back(std::abs(z) > 0 ? std::arg(z) * 180.0 / M_PI : 0.0);
        }
    for (const Link& l : rm.links) {
        c.joint_label.push_back(l.joint_label);
        c.node_label.push_back(l.node_label);
        std::string a = l.name;
        a.resize(8, '\0');
        c.axes += a;
    }
    return c;
}

InverseStats run_inverse_dynamics(const Model& model, Setup& s, RunOutput& output,
                                  const StopRequest* stop) {
    if (model.solver.forever())
        throw InputError(model.solver.final_time.loc,
                         "inverse dynamics needs a finite 'final time'",
                         "give the time to stop at; 'forever' (run until stopped) is for the "
                         "time integration without --analysis");
    const ReducedModel& rm = s.rm;
    Workspace& ws = s.ws;
    const Partition& p = s.part;
    if (!p.u.empty())
        throw InputError(
            coordinate_loc(model, rm, p.u.front()),
            "inverse dynamics needs the whole motion prescribed: " + std::to_string(p.u.size()) +
                " degree(s) of freedom are not driven, the first " + coord_name(rm, p.u.front()),
            "drive them (e.g. an axial rotation, a total joint with drives), or run "
            "the direct dynamics with --analysis reduced-dynamics");
    const double t0 = s.t0, tf = model.solver.tf_or(t0), dt = model.solver.dt();
    const int nq = rm.nq();
    const OutputSelector is_output(model, s.clock);
    RunSettings settings;
    settings.method = "inverse dynamics (relative coordinates)";
    settings.initial_time = t0;
    settings.final_time = tf;
    settings.time_step = dt;
    settings.tolerance = 1e-12;
    OutputSink& sink = output.open(settings);
    TreeNodes nodes(model, rm);
    // PREFIX.act and PREFIX.lam, and their NetCDF and HDF5 groups, through the sinks.
    ReactionBlocks blocks(rm, p);
    Reactions reactions(rm, p);
    StepView view = nodes.view();
    view.blocks = blocks.list;
    sink.begin(view);
    InverseStats st;
    VecX q = s.q, qd = s.qd, qdd = VecX::Zero(nq);
    ReducedState rs;
    const long nsteps = static_cast<long>(std::llround((tf - t0) / dt));
    // Every path ends the sinks (the text and block sinks hold the blocks' rows until then).
    try {
        for (long k = 0; k <= nsteps; ++k) {
            const double t = t0 + static_cast<double>(k) * dt;
            if (k > 0 && stop && stop->asked()) {
                st.stopped = true;
                break;
            }
            s.clock.time = t;
            if (k > 0) {
                // Driven coordinates: Simpson's rule on their velocity drives; the others
                // predicted.
                const double tp = t - dt;
                for (int i : p.c) {
                    const Link& l = rm.links[static_cast<std::size_t>(i)];
                    if (!l.velocity_drive) continue;  // position level: driven_positions below
                    q[i] +=
                        dt / 6.0 * l.drive_sign *
                        (l.velocity_drive->value(tp) +
                         4.0 * l.velocity_drive->value(tp + 0.5 * dt) + l.velocity_drive->value(t));
                }
                for (int i : p.v) q[i] += dt * qd[i] + 0.5 * dt * dt * qdd[i];
            }
            driven_positions(rm, p, t, q);
            if (!solve_positions(rm, ws, p, q, 1e-12))
                throw ReducedFailure(
                    "Newton-Raphson on the dependent coordinates did not converge at t = " +
                    std::to_string(t));
            reduced_accelerations(rm, ws, p, q, qd, t, qdd, rs);
            forward_kinematics(rm, ws, q, qd, qdd);
            compute_loads(rm, ws, t);
            inverse_dynamics(rm, ws);  // Phi = M qdd + c - Q
            constraints(rm, ws);
            reactions.compute(rm, ws, p);  // lambda, tau_c (reactions.hpp)
            const bool out = is_output(k, t);
            forward_kinematics(rm, ws, q, qd, qdd);
            constraints(rm, ws);
            st.max_violation = std::max(st.max_violation, violation(ws));
            StepInfo info = step_info(k, t, dt, ws, out);
            nodes.update(rm, ws);
            if (out) blocks.fill(rm, ws, p, reactions);
            sink.step(view, info);
            ++st.steps;
            st.t_end = t;
        }
    } catch (const std::exception& e) {
        sink.end(view, e.what());  // every file closed; .out ends with the reason
        throw;
    }
    sink.end(view, "");  // a stop's reason and time: added by the caller's sinks
    s.q = q;
    s.qd = qd;
    return st;
}

}  // namespace mbs::reduced
