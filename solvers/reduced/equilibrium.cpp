// Static and dynamic equilibrium of the relative-coordinate model, with exchange variables and
// extra equations (docs/formulation.md section 6; the deck cards are in
// docs/relative-coordinates.md 4).
#include <algorithm>
#include <cmath>

#include "core/source.hpp"
#include "solvers/reduced/analyses.hpp"

namespace mbs::reduced {

namespace {

// The arguments of one located deck card (ProblemSettings::equilibrium_cards, core/settings.hpp),
// read in order; every error points at the card.
class CardArgs {
  public:
    explicit CardArgs(const EquilibriumCard& rec) : rec_(rec) {}
    [[noreturn]] void fail(const std::string& what, const std::string& hint = {}) const {
        throw InputError(rec_.loc, "'" + rec_.name + "': " + what, hint);
    }
    bool at_end() const { return next_ >= rec_.args.size(); }
    std::string word(const char* what) {
        const auto* w = at_end() ? nullptr : std::get_if<std::string>(&rec_.args[next_]);
        if (!w) fail(std::string("expected ") + what);
        ++next_;
        return *w;
    }
    double number(const char* what) {
        const auto* x = at_end() ? nullptr : std::get_if<double>(&rec_.args[next_]);
        if (!x) fail(std::string("expected ") + what);
        ++next_;
        return *x;
    }
    bool accept(const char* w) {
        const auto* v = at_end() ? nullptr : std::get_if<std::string>(&rec_.args[next_]);
        if (v && *v == w) {
            ++next_;
            return true;
        }
        return false;
    }
    void finish() const {
        if (!at_end()) fail("too many arguments");
    }

  private:
    const EquilibriumCard& rec_;
    std::size_t next_ = 0;
};

// <coordinate> ::= joint, L [, coordinate, NAME]: the coordinate of joint L (its only one, or the
// one named as in `mbsolve --tree`, e.g. Rz, Tx), which must be independent.
int read_coordinate(CardArgs& a, const Setup& s) {
    if (!a.accept("joint")) a.fail("expected 'joint, <label>' (the joint whose coordinate it is)");
    const long label = std::lround(a.number("the joint label"));
    std::string name;
    if (a.accept("coordinate")) name = a.word("the coordinate name (as printed by --tree)");
    std::vector<int> found;
    for (int i = 0; i < s.rm.nq(); ++i) {
        const Link& l = s.rm.links[static_cast<std::size_t>(i)];
        if (l.joint_label == label && (name.empty() || l.name == name)) found.push_back(i);
    }
    if (found.empty())
        a.fail("joint " + std::to_string(label) + " has no coordinate" +
                   (name.empty() ? std::string() : " named '" + name + "'") + " in the tree",
               "see mbsolve --tree");
    if (found.size() > 1)
        a.fail("joint " + std::to_string(label) + " has " + std::to_string(found.size()) +
                   " coordinates",
               "name one: 'joint, " + std::to_string(label) + ", coordinate, <name>'");
    const int c = found[0];
    if (std::find(s.part.u.begin(), s.part.u.end(), c) == s.part.u.end())
        a.fail("coordinate q" + std::to_string(c + 1) + " is not independent",
               "propose it with --independent, or use another joint");
    return c;
}

// <parameter> ::= body, L, mass | joint, L, {stiffness | length} | {force | couple}, L, scale
//               | spin
EquilibriumSpec::Param read_parameter(CardArgs& a, const Setup& s) {
    EquilibriumSpec::Param p;
    if (a.accept("spin")) {
        p.kind = EquilibriumSpec::ParamKind::spin_rate;
        p.name = "spin rate";
        return p;
    }
    const std::string what = a.word("a parameter: body, joint, force, couple or spin");
    const long label = std::lround(a.number("its label"));
    const std::string prop = a.word("the parameter's name (mass, stiffness, length, scale)");
    p.name = what + " " + std::to_string(label) + " " + prop;
    auto find_index = [&](auto const& list, auto pred) {
        for (std::size_t i = 0; i < list.size(); ++i)
            if (pred(list[i])) return static_cast<int>(i);
        return -1;
    };
    if (what == "body" && prop == "mass") {
        p.kind = EquilibriumSpec::ParamKind::body_mass;
        p.index = find_index(s.rm.bodies, [&](const auto& b) { return b.label == label; });
    } else if (what == "joint" && (prop == "stiffness" || prop == "length")) {
        p.kind = prop == "length" ? EquilibriumSpec::ParamKind::rod_length
                                  : EquilibriumSpec::ParamKind::stiffness;
        p.index = find_index(s.rm.link_forces, [&](const auto& f) {
            return f.label == label && (prop == "stiffness" || f.kind == LinkForceKind::rod);
        });
    } else if ((what == "force" || what == "couple") && prop == "scale") {
        p.kind = EquilibriumSpec::ParamKind::load_scale;
        const bool couple = what == "couple";
        p.index = find_index(s.rm.loads, [&](const Load& l) {
            const bool is_couple =
                l.kind == LoadKind::couple_absolute || l.kind == LoadKind::couple_follower;
            return l.label == label && is_couple == couple;
        });
    } else {
        a.fail("unknown parameter '" + what + ", " + std::to_string(label) + ", " + prop + "'",
               "body, L, mass; joint, L, stiffness (rod, deformable hinge); joint, L, length "
               "(rod); force, L, scale; couple, L, scale; spin");
    }
    if (p.index < 0)
        a.fail(what + " " + std::to_string(label) + " is not in the relative-coordinate model" +
               (what == "joint" ? " as a rod or deformable hinge" : ""));
    return p;
}

void set_parameter(Setup& s, const EquilibriumSpec::Param& p, double v, double& spin_rate) {
    using K = EquilibriumSpec::ParamKind;
    switch (p.kind) {
        case K::body_mass:
            s.rm.bodies[static_cast<std::size_t>(p.index)].mass = v;
            combine_bodies(s.rm);
            break;
        case K::stiffness: {
            LinkForce& f = s.rm.link_forces[static_cast<std::size_t>(p.index)];
            if (f.kind == LinkForceKind::rod)
                f.ea = v;
            else
                f.K = v * Mat3::Identity();
            break;
        }
        case K::rod_length:
            s.rm.link_forces[static_cast<std::size_t>(p.index)].l0 = v;
            break;
        case K::load_scale:
            s.rm.loads[static_cast<std::size_t>(p.index)].scale = v;
            break;
        case K::spin_rate:
            spin_rate = v;
            break;
    }
}

double get_parameter(const Setup& s, const EquilibriumSpec::Param& p, double spin_rate) {
    using K = EquilibriumSpec::ParamKind;
    switch (p.kind) {
        case K::body_mass:
            return s.rm.bodies[static_cast<std::size_t>(p.index)].mass;
        case K::stiffness: {
            const LinkForce& f = s.rm.link_forces[static_cast<std::size_t>(p.index)];
            return f.kind == LinkForceKind::rod ? f.ea : f.K(0, 0);
        }
        case K::rod_length:
            return s.rm.link_forces[static_cast<std::size_t>(p.index)].l0;
        case K::load_scale:
            return s.rm.loads[static_cast<std::size_t>(p.index)].scale;
        case K::spin_rate:
            return spin_rate;
    }
    return 0.0;
}

}  // namespace

// Cards (docs/relative-coordinates.md 4): exchange: <coordinate>, <value>, <parameter>;
//                 extra: node, L, position, k, <value>, <parameter>;
//                 spin: <coordinate>, {<rate> | unknown, <initial guess>};
//                 time: <t>;
EquilibriumSpec read_equilibrium_spec(const Model& model, const Setup& s) {
    EquilibriumSpec sp;
    std::vector<std::pair<const EquilibriumCard*, std::string>> spin_params;
    const EquilibriumCard* spin_card = nullptr;
    for (const EquilibriumCard& rec : model.solver.equilibrium_cards) {
        CardArgs a(rec);
        if (rec.name == "time") {
            if (sp.has_time) a.fail("the equilibrium time is given twice");
            sp.time = a.number("the time [s] of the loads and of the held driven coordinates");
            sp.has_time = true;
            a.finish();
            continue;
        }
        if (rec.name == "spin") {
            if (sp.spin >= 0) a.fail("only one spinning coordinate");
            spin_card = &rec;
            sp.spin = read_coordinate(a, s);
            if (a.accept("unknown")) {
                sp.spin_unknown = true;
                sp.spin_rate = a.number("the initial guess of the rate [rad/s or m/s]");
            } else {
                sp.spin_rate = a.number("the rate [rad/s or m/s], or 'unknown, <guess>'");
            }
            a.finish();
            continue;
        }
        EquilibriumSpec::Param p;
        if (rec.name == "exchange") {
            const int c = read_coordinate(a, s);
            const double v = a.number("the value the coordinate is held at [rad or m]");
            if (std::find(sp.fixed.begin(), sp.fixed.end(), c) != sp.fixed.end())
                a.fail("coordinate q" + std::to_string(c + 1) + " is exchanged twice");
            sp.fixed.push_back(c);
            sp.fixed_value.push_back(v);
        } else {  // extra
            if (!a.accept("node")) a.fail("expected 'node, <label>, position, <1|2|3>, <value>'");
            const long label = std::lround(a.number("the node label"));
            EquilibriumSpec::Extra e;
            const auto it = std::find_if(s.rm.nodes.begin(), s.rm.nodes.end(),
                                         [&](const NodeAttach& n) { return n.label == label; });
            if (it == s.rm.nodes.end()) a.fail("node " + std::to_string(label) + " does not exist");
            e.link = it->link;
            e.r = it->r;
            if (!a.accept("position")) a.fail("expected 'position'");
            const double k = a.number("the component (1, 2 or 3: global x, y, z)");
            if (k != 1 && k != 2 && k != 3) a.fail("the component must be 1, 2 or 3");
            e.comp = static_cast<int>(k) - 1;
            e.value = a.number("the value [m]");
            e.name = "node " + std::to_string(label) + " position " + std::to_string(e.comp + 1);
            sp.extras.push_back(e);
        }
        p = read_parameter(a, s);
        a.finish();
        if (p.kind == EquilibriumSpec::ParamKind::spin_rate) spin_params.emplace_back(&rec, p.name);
        for (const auto& q : sp.params)
            if (q.kind == p.kind && q.index == p.index)
                CardArgs(rec).fail("the parameter '" + p.name + "' is already unknown");
        sp.params.push_back(p);
    }
    for (const auto& [rec, name] : spin_params)
        if (sp.spin < 0 || !sp.spin_unknown)
            CardArgs(*rec).fail("the spin rate is not unknown",
                                "declare it with 'spin: joint, L, unknown, <guess>;'");
    if (sp.spin_unknown && spin_params.empty())
        throw InputError(spin_card->loc,
                         "'spin: ..., unknown' needs an exchange or extra equation "
                         "whose parameter is 'spin'");
    for (int c : sp.fixed)
        if (c == sp.spin) throw InputError(spin_card->loc, "the spinning coordinate is exchanged");
    return sp;
}

namespace {

// Driven coordinates held at time t: position-level drives q_c = s f(t); velocity-level ones
// (axial rotation, velocity components) q_c(t0) + s int_t0^t f (composite Simpson, 2000
// intervals; the clock follows the abscissae: string drives read it).
void hold_driven(Setup& s, double t, VecX& q) {
    const double t0 = s.t0;
    for (int i : s.part.c) {
        const Link& l = s.rm.links[static_cast<std::size_t>(i)];
        if (!l.velocity_drive || t == t0) continue;
        constexpr int n = 2000;
        const double h = (t - t0) / n;
        double sum = 0.0;
        for (int k = 0; k <= n; ++k) {
            const double tk = t0 + k * h;
            s.clock.time = tk;
            sum += (k == 0 || k == n ? 1.0 : k % 2 ? 4.0 : 2.0) * l.velocity_drive->value(tk);
        }
        q[i] += l.drive_sign * sum * h / 3.0;
    }
    s.clock.time = t;
    driven_positions(s.rm, s.part, t, q);
}

// The forces at a steady state (q, qd) with qdd_u = 0 and the driven coordinates held
// (qd_c = qdd_c = 0; driven cuts held at their value too), qd_u given: the constraints' rows give
// qd_v = B_vu qd_u (B_vu = -J_v^-1 J_u) and qdd_v = -J_v^-1 gamma (gamma = Jdot qd); Phi = M qdd +
// c - Q by Newton-Euler; then, as inverse dynamics, lambda = J_v^-T Phi_v and
//   F_r   = Phi_u - J_u^T lambda  (= T^T Phi, the reduced generalized forces),
//   tau_c = Phi_c - J_c^T lambda  (the generalized force the driven joint applies).
// Scale: max(1, max diag M_r), M_r = T^T M T with T = [1; B_vu; 0].
struct SteadyForces {
    VecX Fr, tau_c;
    double scale = 1.0;
    MatX Mr, T;
};
void steady_forces(Setup& s, VecX& q, VecX& qd, double t, SteadyForces& out) {
    const Partition& p = s.part;
    const ReducedModel& rm = s.rm;
    Workspace& ws = s.ws;
    const int nu = static_cast<int>(p.u.size()), nv = static_cast<int>(p.v.size()),
              nc = static_cast<int>(p.c.size()), nq = rm.nq();
    auto at = [](const std::vector<int>& v, int k) { return v[static_cast<std::size_t>(k)]; };
    for (int i : p.v) qd[i] = 0.0;
    for (int i : p.c) qd[i] = 0.0;
    forward_kinematics(rm, ws, q, ws.zero, ws.zero);
    constraints(rm, ws);
    // gamma at qd = 0: the drives' part of driven cuts (held too: subtracted below).
    VecX gamma0(nv);
    for (int r = 0; r < nv; ++r) gamma0[r] = ws.gamma[at(p.rows, r)];
    MatX Jv(nv, nv), Ju(nv, nu), Jc(nv, nc);
    for (int r = 0; r < nv; ++r) {
        const int row = at(p.rows, r);
        for (int j = 0; j < nv; ++j) Jv(r, j) = ws.J(row, at(p.v, j));
        for (int j = 0; j < nu; ++j) Ju(r, j) = ws.J(row, at(p.u, j));
        for (int j = 0; j < nc; ++j) Jc(r, j) = ws.J(row, at(p.c, j));
    }
    const Eigen::PartialPivLU<MatX> lu(Jv);
    // No solve with an empty side (nu = 0: every coordinate driven or dependent; UBSan).
    MatX Bvu = nv && nu ? MatX(-lu.solve(Ju)) : MatX(nv, nu);
    VecX qdu(nu);
    for (int j = 0; j < nu; ++j) qdu[j] = qd[at(p.u, j)];
    if (nv) {
        const VecX qdv = Bvu * qdu;
        for (int j = 0; j < nv; ++j) qd[at(p.v, j)] = qdv[j];
    }
    forward_kinematics(rm, ws, q, qd, ws.zero);
    constraints(rm, ws);
    VecX qdd = VecX::Zero(nq);
    if (nv) {
        VecX g(nv);
        for (int r = 0; r < nv; ++r) g[r] = ws.gamma[at(p.rows, r)] - gamma0[r];
        const VecX sv = -lu.solve(g);
        for (int j = 0; j < nv; ++j) qdd[at(p.v, j)] = sv[j];
    }
    forward_kinematics(rm, ws, q, qd, qdd);
    compute_loads(rm, ws, t);
    inverse_dynamics(rm, ws);
    VecX phiv(nv), phiu(nu), phic(nc);
    for (int j = 0; j < nv; ++j) phiv[j] = ws.tau[at(p.v, j)];
    for (int j = 0; j < nu; ++j) phiu[j] = ws.tau[at(p.u, j)];
    for (int j = 0; j < nc; ++j) phic[j] = ws.tau[at(p.c, j)];
    const VecX lambda = nv ? VecX(lu.transpose().solve(phiv)) : VecX(0);
    out.Fr = nv ? VecX(phiu - Ju.transpose() * lambda) : phiu;
    out.tau_c = nv ? VecX(phic - Jc.transpose() * lambda) : phic;
    mass_matrix(rm, ws);
    out.T = MatX::Zero(nq, nu);
    for (int j = 0; j < nu; ++j) {
        out.T(at(p.u, j), j) = 1.0;
        for (int i = 0; i < nv; ++i) out.T(at(p.v, i), j) = Bvu(i, j);
    }
    out.Mr = out.T.transpose() * ws.M * out.T;
    out.scale = std::max(1.0, nu ? out.Mr.diagonal().cwiseAbs().maxCoeff() : 1.0);
}

}  // namespace

// F_r above is the reduced equations' residual at qdd_u = 0, M_r qdd_u + F_r = 0, hence
// qdd_u = -M_r^-1 F_r (LDLT: M_r is symmetric positive definite).
VecX held_accelerations(Setup& s, VecX& q, VecX& qd, double t, MatX* T) {
    SteadyForces sf;
    steady_forces(s, q, qd, t, sf);
    if (T) *T = sf.T;
    if (sf.Fr.size() == 0) return VecX(0);
    return -sf.Mr.ldlt().solve(sf.Fr);
}

// Unknowns z = (q_f, p): the independent coordinates not held (exchanged) and not spinning, then
// the parameters. Equations: F_r(q, qd) = 0 (steady_forces: qd = 0 except qd_spin = rate, the
// driven coordinates held at the equilibrium time; the spinning coordinate's own position stays
// as it is: its row of F_r remains an equation, zero for a cyclic coordinate, else balanced by a
// parameter), then the extra equations x_node,k(q) - value = 0. Newton with a central-difference
// Jacobian (step 1e-6 (1 + |z_j|), each configuration made consistent by Newton on q_v) solved in
// the least-squares sense (complete orthogonal decomposition: also when F_r has identically zero
// rows); converged when max(|F_r| / max(1, max diag M_r), |extra|) <= tol.
EquilibriumResult solve_equilibrium(Setup& s, const EquilibriumSpec& sp, double tol) {
    const Partition& p = s.part;
    const int nu = static_cast<int>(p.u.size()), nq = s.rm.nq();
    std::vector<int> free_u;
    for (int c : p.u)
        if (c != sp.spin && std::find(sp.fixed.begin(), sp.fixed.end(), c) == sp.fixed.end())
            free_u.push_back(c);
    const int nf = static_cast<int>(free_u.size()), np = static_cast<int>(sp.params.size());
    const int nz = nf + np, ne = static_cast<int>(sp.extras.size()), nr = nu + ne;
    const double t = sp.has_time ? sp.time : s.t0;
    double spin_rate = sp.spin_rate;
    VecX q = s.q;
    hold_driven(s, t, q);
    for (std::size_t k = 0; k < sp.fixed.size(); ++k) q[sp.fixed[k]] = sp.fixed_value[k];
    VecX z(nz);
    for (int j = 0; j < nf; ++j) z[j] = q[free_u[static_cast<std::size_t>(j)]];
    for (int j = 0; j < np; ++j)
        z[nf + j] = get_parameter(s, sp.params[static_cast<std::size_t>(j)], spin_rate);
    SteadyForces sf;
    VecX qd = VecX::Zero(nq);
    auto residual = [&](const VecX& zz, VecX& res) {
        for (int j = 0; j < nf; ++j) q[free_u[static_cast<std::size_t>(j)]] = zz[j];
        for (int j = 0; j < np; ++j)
            set_parameter(s, sp.params[static_cast<std::size_t>(j)], zz[nf + j], spin_rate);
        s.clock.time = t;
        if (!solve_positions(s.rm, s.ws, p, q, 1e-14, 50))
            throw ReducedFailure("Newton-Raphson on the dependent coordinates did not converge");
        qd.setZero();
        if (sp.spin >= 0) qd[sp.spin] = spin_rate;
        steady_forces(s, q, qd, t, sf);
        res.head(nu) = sf.Fr;
        if (ne > 0) {
            forward_kinematics(s.rm, s.ws, q, qd, s.ws.zero);
            for (int k = 0; k < ne; ++k) {
                const EquilibriumSpec::Extra& e = sp.extras[static_cast<std::size_t>(k)];
                res[nu + k] = point_state(s.ws, e.link, e.r).x[e.comp] - e.value;
            }
        }
    };
    auto measure = [&](const VecX& res) {
        double m = nu ? res.head(nu).lpNorm<Eigen::Infinity>() / sf.scale : 0.0;
        if (ne) m = std::max(m, res.tail(ne).lpNorm<Eigen::Infinity>());
        return m;
    };
    VecX res(nr), rp(nr), rm(nr);
    MatX K(nr, nz);
    // Column j of K = d res / d z_j (central differences).
    auto jacobian = [&](const VecX& zz) {
        for (int j = 0; j < nz; ++j) {
            const double h = 1e-6 * (1.0 + std::abs(zz[j]));
            VecX zp = zz, zm = zz;
            zp[j] += h;
            zm[j] -= h;
            residual(zp, rp);
            residual(zm, rm);
            K.col(j) = (rp - rm) / (2 * h);
        }
        residual(zz, res);  // leaves the model at zz
    };
    EquilibriumResult out;
    for (int it = 0; it <= 50; ++it) {
        residual(z, res);
        out.residual = measure(res);
        if (out.residual <= tol) {
            out.iterations = it;
            const double scale = sf.scale;
            jacobian(z);
            for (int j = 0; j < nf; ++j)
                if (K.col(j).head(nu).lpNorm<Eigen::Infinity>() <= 1e-9 * scale &&
                    (ne == 0 || K.col(j).tail(ne).lpNorm<Eigen::Infinity>() <= 1e-9))
                    out.insensitive.push_back(free_u[static_cast<std::size_t>(j)]);
            for (int j = 0; j < np; ++j)
                out.parameters.emplace_back(sp.params[static_cast<std::size_t>(j)].name, z[nf + j]);
            out.spin = sp.spin;
            out.spin_rate = spin_rate;
            out.time = t;
            for (std::size_t j = 0; j < p.c.size(); ++j)
                out.driving.emplace_back(p.c[j],
                                         s.rm.links[static_cast<std::size_t>(p.c[j])].drive_sign *
                                             sf.tau_c[static_cast<Eigen::Index>(j)]);
            s.q = q;
            s.qd = qd;
            return out;
        }
        jacobian(z);
        z += K.completeOrthogonalDecomposition().solve(-res);
    }
    throw ReducedFailure("equilibrium: Newton did not converge in 50 iterations (residual " +
                         std::to_string(out.residual) + ")");
}

EquilibriumResult solve_equilibrium(Setup& s, double tol) {
    return solve_equilibrium(s, EquilibriumSpec{}, tol);
}

}  // namespace mbs::reduced
