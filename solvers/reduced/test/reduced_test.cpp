// Tests of the relative-coordinate path: recursive kinematics and dynamics against finite
// differences and Lagrange's equations on a random spatial tree with every cut kind, inverse
// dynamics of a 2-link arm against its closed-form Lagrange torques, tree extraction and
// partitioning on the example decks.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <random>

#include "parser/builder.hpp"
#include "solvers/reduced/analyses.hpp"

using namespace mbs;
using namespace mbs::reduced;

namespace {

std::string example(const char* name) {
    return std::string(MBS_SOURCE_DIR) + "/input-examples/" + name;
}

Model load(const std::string& path, std::map<std::string, std::string> defines = {}) {
    parser::BuildOptions bo;
    bo.defines = std::move(defines);
    bo.echo_warnings = false;
    return parser::build_model(path, bo);
}

// f(t) = a + b sin(w t + phi) with its exact derivatives (a driven cut's value).
class SineDrive final : public Drive {
  public:
    SineDrive(double a, double b, double w, double phi) : a_(a), b_(b), w_(w), phi_(phi) {}
    double value(double t) const override { return a_ + b_ * std::sin(w_ * t + phi_); }
    double deriv(double t) const override { return b_ * w_ * std::cos(w_ * t + phi_); }
    double second(double t) const { return -b_ * w_ * w_ * std::sin(w_ * t + phi_); }

  private:
    double a_, b_, w_, phi_;
};

// A random spatial tree: 9 links (revolute and prismatic, random parents, axes and fixed
// transforms, some massless), gravity, and one cut of every kind between random links; then a
// total joint cut with two free rotations (position row 2 driven by a SineDrive, the rotation
// vector's component 1 locked: the twist row) and a rod cut whose length is a SineDrive.
ReducedModel random_model(std::mt19937& rng) {
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    auto vec = [&] { return Vec3(U(rng), U(rng), U(rng)); };
    auto rot = [&] {
        return Mat3(Eigen::AngleAxisd(3.0 * U(rng), vec().normalized()).toRotationMatrix());
    };
    ReducedModel m;
    const int n = 9;
    for (int i = 0; i < n; ++i) {
        Link l;
        l.parent =
            i == 0 ? -1 : static_cast<int>(std::uniform_int_distribution<int>(-1, i - 1)(rng));
        l.kind = i % 3 == 2 ? Axis::prismatic : Axis::revolute;
        l.axis = vec().normalized();
        l.r_pre = vec();
        l.R_pre = rot();
        l.r_post = vec();
        l.R_post = rot();
        if (i != 4) {
            l.mass = 1.0 + U(rng) * 0.5;
            l.com = 0.3 * vec();
            const Vec3 d(1.0 + 0.3 * U(rng), 1.2 + 0.3 * U(rng), 0.8 + 0.3 * U(rng));
            const Mat3 Q = rot();
            l.inertia = 0.1 * Q * d.asDiagonal() * Q.transpose();
        }
        l.name = "x";
        m.links.push_back(l);
    }
    m.has_gravity = true;
    m.gravity = TplDrive<3>::constant(Vec3(0.3, -9.81, 0.5));
    // The two total joint cuts: position rows 1 and 3 with the revolute's two rotation rows;
    // position rows 1 and 2 with a locked orientation (3 rows).
    const CutKind kinds[] = {CutKind::ball,      CutKind::revolute, CutKind::in_line,
                             CutKind::in_plane,  CutKind::rod,      CutKind::cardano,
                             CutKind::prismatic, CutKind::total,    CutKind::total};
    const int rows[] = {3, 5, 2, 1, 1, 4, 3, 4, 5};
    for (int k = 0; k < 9; ++k) {
        Cut c;
        c.kind = kinds[k];
        c.rows = rows[k];
        c.link_a = k == 0 ? -1 : k == 6 ? 4 : k == 7 ? 3 : k == 8 ? 6 : (2 * k - 1) % 9;
        c.link_b = k == 8 ? -1 : 8 - k;
        c.p_a = vec();
        c.p_b = vec();
        c.R_a = rot();
        c.R_b = rot();
        if (k >= 7) {
            c.Rp_a = rot();
            c.pos_value = vec();
            c.pos_mask = k == 7 ? 0b101 : 0b011;
            c.rot_rows = k == 7 ? 2 : 3;
        }
        c.length = 1.3;
        c.first_row = m.n_constraints;
        m.n_constraints += c.rows;
        m.cuts.push_back(c);
    }
    for (int k = 9; k < 11; ++k) {
        Cut c;
        c.link_a = k == 9 ? 2 : -1;
        c.link_b = k == 9 ? 7 : 5;
        c.p_a = vec();
        c.p_b = vec();
        c.R_a = rot();
        c.R_b = rot();
        if (k == 9) {
            c.kind = CutKind::total;
            c.Rp_a = rot();
            c.pos_mask = 0b010;
            c.pos_drive[1] = std::make_shared<SineDrive>(0.2, 0.5, 1.7, 0.4);
            c.rot_rows = 1;
            c.rot_axis = 0;
            c.rows = 2;
        } else {
            c.kind = CutKind::rod;
            c.length_drive = std::make_shared<SineDrive>(1.1, 0.3, 2.3, 0.9);
            c.rows = 1;
        }
        c.first_row = m.n_constraints;
        m.n_constraints += c.rows;
        m.cuts.push_back(c);
    }
    return m;
}

// f''(t) of the driven rows of random_model (row, f''), to take out of Jdot qd comparisons.
std::vector<std::pair<int, double>> driven_second(const ReducedModel& m, double t) {
    std::vector<std::pair<int, double>> r;
    for (const Cut& c : m.cuts) {
        if (c.pos_drive[1])
            r.emplace_back(c.first_row, dynamic_cast<const SineDrive&>(*c.pos_drive[1]).second(t));
        if (c.length_drive)
            r.emplace_back(c.first_row, dynamic_cast<const SineDrive&>(*c.length_drive).second(t));
    }
    return r;
}

VecX random_vec(std::mt19937& rng, int n, double scale) {
    std::uniform_real_distribution<double> U(-scale, scale);
    VecX v(n);
    for (int i = 0; i < n; ++i) v[i] = U(rng);
    return v;
}

}  // namespace

// J = dh/dq by central differences (step 1e-6): agreement to 1e-7 absolute.
TEST(ReducedDynamics, ConstraintJacobianMatchesFiniteDifferences) {
    std::mt19937 rng(7);
    for (int trial = 0; trial < 5; ++trial) {
        ReducedModel m = random_model(rng);
        Workspace ws = make_workspace(m);
        const VecX q = random_vec(rng, m.nq(), 2.0);
        forward_kinematics(m, ws, q, ws.zero, ws.zero);
        constraints(m, ws);
        const MatX J = ws.J;
        const double h = 1e-6;
        for (int j = 0; j < m.nq(); ++j) {
            VecX qp = q, qm = q;
            qp[j] += h;
            qm[j] -= h;
            forward_kinematics(m, ws, qp, ws.zero, ws.zero);
            constraints(m, ws);
            const VecX hp = ws.h;
            forward_kinematics(m, ws, qm, ws.zero, ws.zero);
            constraints(m, ws);
            const VecX fd = (hp - ws.h) / (2 * h);
            EXPECT_LT((fd - J.col(j)).lpNorm<Eigen::Infinity>(), 1e-7)
                << "trial " << trial << " column " << j;
        }
    }
}

// gamma = Jdot qd = d/de [J(q + e qd) qd] at e = 0 (central differences, step 1e-6): 1e-6.
TEST(ReducedDynamics, GammaIsJdotQd) {
    std::mt19937 rng(11);
    for (int trial = 0; trial < 5; ++trial) {
        ReducedModel m = random_model(rng);
        Workspace ws = make_workspace(m);
        const VecX q = random_vec(rng, m.nq(), 2.0), qd = random_vec(rng, m.nq(), 1.5);
        forward_kinematics(m, ws, q, qd, ws.zero);
        constraints(m, ws);
        const VecX gamma = ws.gamma;
        const double h = 1e-6;
        forward_kinematics(m, ws, q + h * qd, ws.zero, ws.zero);
        constraints(m, ws);
        const VecX jp = ws.J * qd;
        forward_kinematics(m, ws, q - h * qd, ws.zero, ws.zero);
        constraints(m, ws);
        VecX fd = (jp - ws.J * qd) / (2 * h);
        for (const auto& [row, f2] : driven_second(m, 0.0)) fd[row] -= f2;  // gamma has -f''
        EXPECT_LT((fd - gamma).lpNorm<Eigen::Infinity>(),
                  1e-6 * (1 + gamma.lpNorm<Eigen::Infinity>()))
            << "trial " << trial;
    }
}

// Time derivatives of h(q(s), t + s) along q(s) = q + s qd + s^2/2 qdd (central differences,
// steps 1e-5 and 1e-4): dh/ds = J qd + ht to 1e-8 and d2h/ds2 = J qdd + gamma to 1e-5 (the driven
// rows' f'' in gamma is itself a central difference of f', error ~1e-8 here). The twist row is also
// checked against its definition E_21 - E_12 with E = R_A^T R_B.
TEST(ReducedDynamics, DrivenCutsTimeDerivatives) {
    std::mt19937 rng(19);
    for (int trial = 0; trial < 5; ++trial) {
        ReducedModel m = random_model(rng);
        Workspace ws = make_workspace(m);
        const int n = m.nq();
        const VecX q = random_vec(rng, n, 2.0), qd = random_vec(rng, n, 1.5),
                   qdd = random_vec(rng, n, 1.0);
        const double t = 0.37 + 0.2 * trial, h = 1e-4;
        auto H = [&](double s) {
            forward_kinematics(m, ws, q + s * qd + 0.5 * s * s * qdd, ws.zero, ws.zero);
            constraints(m, ws, t + s);
            return VecX(ws.h);
        };
        const VecX h0 = H(0.0), hp = H(h), hm = H(-h), hp1 = H(0.1 * h), hm1 = H(-0.1 * h);
        forward_kinematics(m, ws, q, qd, ws.zero);
        constraints(m, ws, t);
        const VecX d1 = ws.J * qd + ws.ht, d2 = ws.J * qdd + ws.gamma;
        EXPECT_LT(((hp1 - hm1) / (0.2 * h) - d1).lpNorm<Eigen::Infinity>(), 1e-8) << trial;
        EXPECT_LT(((hp - 2 * h0 + hm) / (h * h) - d2).lpNorm<Eigen::Infinity>(), 1e-5) << trial;
        // Only the driven rows have ht.
        const Cut& tc = m.cuts[9];
        const Cut& rc = m.cuts[10];
        for (int r = 0; r < m.n_constraints; ++r) {
            if (r != tc.first_row && r != rc.first_row) {
                EXPECT_EQ(ws.ht[r], 0.0) << r;
            }
        }
        EXPECT_NE(ws.ht[tc.first_row], 0.0);
        const Mat3 E = (ws.R[2] * tc.R_a).transpose() * ws.R[5 + 2] * tc.R_b;
        EXPECT_NEAR(h0[tc.first_row + 1], E(2, 1) - E(1, 2), 1e-14);
    }
}

// The composite-rigid-body M equals the qdd-columns of Newton-Euler, and RNEA's bias forces obey
// Lagrange's equations: c = (dM/dt) qd - 1/2 d(qd^T M qd)/dq and, with gravity alone,
// tau(q, 0, 0) = dV/dq with V = -sum m g . c (finite differences, step 1e-6).
TEST(ReducedDynamics, MassMatrixAndBiasFollowLagrange) {
    std::mt19937 rng(3);
    for (int trial = 0; trial < 4; ++trial) {
        ReducedModel m = random_model(rng);
        Workspace ws = make_workspace(m);
        const int n = m.nq();
        const VecX q = random_vec(rng, n, 2.0), qd = random_vec(rng, n, 1.5);
        auto M_at = [&](const VecX& qq) {
            forward_kinematics(m, ws, qq, ws.zero, ws.zero);
            mass_matrix(m, ws);
            return MatX(ws.M);
        };
        auto tau = [&](const VecX& qq, const VecX& v, const VecX& a, bool gravity) {
            forward_kinematics(m, ws, qq, v, a);
            compute_loads(m, ws, 0.0);
            if (!gravity) ws.g.setZero();
            inverse_dynamics(m, ws);
            return VecX(ws.tau);
        };
        const MatX M = M_at(q);
        EXPECT_LT((M - M.transpose()).lpNorm<Eigen::Infinity>(), 1e-12);
        const VecX t0 = tau(q, qd, VecX::Zero(n), false);
        for (int j = 0; j < n; ++j) {
            VecX a = VecX::Zero(n);
            a[j] = 1.0;
            EXPECT_LT((tau(q, qd, a, false) - t0 - M.col(j)).lpNorm<Eigen::Infinity>(), 1e-11);
        }
        const double h = 1e-6;
        VecX mdot_qd = VecX::Zero(n), dT = VecX::Zero(n);
        const MatX Mdot = (M_at(q + h * qd) - M_at(q - h * qd)) / (2 * h);
        mdot_qd = Mdot * qd;
        for (int j = 0; j < n; ++j) {
            VecX qp = q, qm = q;
            qp[j] += h;
            qm[j] -= h;
            dT[j] = 0.5 * (qd.dot(M_at(qp) * qd) - qd.dot(M_at(qm) * qd)) / (2 * h);
        }
        EXPECT_LT((t0 - (mdot_qd - dT)).lpNorm<Eigen::Infinity>(), 1e-6) << "trial " << trial;
        // Potential energy of gravity.
        auto V = [&](const VecX& qq) {
            forward_kinematics(m, ws, qq, ws.zero, ws.zero);
            const Vec3 g = m.gravity.value(0.0);
            double v = 0;
            for (int i = 0; i < n; ++i) {
                const Link& l = m.links[static_cast<std::size_t>(i)];
                v -= l.mass * g.dot(ws.x[static_cast<std::size_t>(i)] +
                                    ws.R[static_cast<std::size_t>(i)] * l.com);
            }
            return v;
        };
        const VecX tg = tau(q, VecX::Zero(n), VecX::Zero(n), true);
        for (int j = 0; j < n; ++j) {
            VecX qp = q, qm = q;
            qp[j] += h;
            qm[j] -= h;
            EXPECT_NEAR(tg[j], (V(qp) - V(qm)) / (2 * h), 1e-6)
                << "trial " << trial << " coordinate " << j;
        }
    }
}

// Planar 2-link arm (uniform-like links: mass m_i, centre of mass at lc_i, inertia I_i about it,
// gravity -y), q1 absolute, q2 relative. Closed-form Lagrange torques:
//   M11 = m1 lc1^2 + I1 + m2 (l1^2 + lc2^2 + 2 l1 lc2 cos q2) + I2, M12 = m2 (lc2^2 + l1 lc2 cos
//   q2) + I2, M22 = m2 lc2^2 + I2, hh = m2 l1 lc2 sin q2, tau1 = M11 a1 + M12 a2 - hh (2 qd1 qd2 +
//   qd2^2) + (m1 lc1 + m2 l1) g cos q1 + m2 lc2 g cos(q1 + q2) tau2 = M12 a1 + M22 a2 + hh qd1^2 +
//   m2 lc2 g cos(q1 + q2)
// Inverse dynamics on q = (0.7 sin 2t, -0.4 + 0.9 cos 3t) agrees to 1e-10.
TEST(ReducedDynamics, TwoLinkArmInverseDynamicsMatchesLagrange) {
    Model model = load(example("reduced_two_link_arm.mbd"));
    SimClock clock;
    ReducedModel m = build_reduced_model(model, &clock);
    ASSERT_EQ(m.nq(), 2);
    Workspace ws = make_workspace(m);
    const double m1 = 2.0, m2 = 1.5, l1 = 1.0, lc1 = 0.5, lc2 = 0.4, I1 = 2.0 / 12,
                 I2 = 1.5 * 0.64 / 12, g = 9.81;
    for (double t = 0.0; t < 2.0; t += 0.137) {
        VecX q(2), qd(2), qdd(2);
        q << 0.7 * std::sin(2 * t), -0.4 + 0.9 * std::cos(3 * t);
        qd << 1.4 * std::cos(2 * t), -2.7 * std::sin(3 * t);
        qdd << -2.8 * std::sin(2 * t), -8.1 * std::cos(3 * t);
        forward_kinematics(m, ws, q, qd, qdd);
        compute_loads(m, ws, t);
        inverse_dynamics(m, ws);
        const double c2 = std::cos(q[1]), hh = m2 * l1 * lc2 * std::sin(q[1]);
        const double M11 =
            m1 * lc1 * lc1 + I1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * c2) + I2;
        const double M12 = m2 * (lc2 * lc2 + l1 * lc2 * c2) + I2, M22 = m2 * lc2 * lc2 + I2;
        const double g12 = m2 * lc2 * g * std::cos(q[0] + q[1]);
        const double tau1 = M11 * qdd[0] + M12 * qdd[1] - hh * (2 * qd[0] * qd[1] + qd[1] * qd[1]) +
                            (m1 * lc1 + m2 * l1) * g * std::cos(q[0]) + g12;
        const double tau2 = M12 * qdd[0] + M22 * qdd[1] + hh * qd[0] * qd[0] + g12;
        EXPECT_NEAR(ws.tau[0], tau1, 1e-10) << "t = " << t;
        EXPECT_NEAR(ws.tau[1], tau2, 1e-10) << "t = " << t;
    }
}

// Tree extraction and partitioning on the example decks.
TEST(ReducedPartition, DegreesOfFreedomAndRedundancy) {
    struct Case {
        const char* deck;
        int nq, constraints, rank, driven;
        std::vector<long> redundant;
    };
    const Case cases[] = {
        {"four_bar.mbd", 3, 2, 2, 1, {}},                  // driven crank: 0 DOF
        {"n_four_bar.mbd", 5, 4, 4, 0, {}},                // 1 DOF
        {"andrews.mbd", 7, 6, 6, 0, {}},                   // 1 DOF
        {"parallelogram_redundant.mbd", 3, 5, 2, 0, {5}},  // planar loop closed by a hinge: 3
                                                           // redundant
    };
    for (const Case& c : cases) {
        Model model = load(example(c.deck));
        auto s = make_setup(model);
        EXPECT_EQ(s->rm.nq(), c.nq) << c.deck;
        EXPECT_EQ(s->rm.n_constraints, c.constraints) << c.deck;
        EXPECT_EQ(static_cast<int>(s->part.rows.size()), c.rank) << c.deck;
        EXPECT_EQ(static_cast<int>(s->part.c.size()), c.driven) << c.deck;
        EXPECT_EQ(s->part.redundant_joints, c.redundant) << c.deck;
        // The dependent block of the partition is invertible and the constraints hold.
        forward_kinematics(s->rm, s->ws, s->q, s->qd, s->ws.zero);
        constraints(s->rm, s->ws);
        if (s->rm.n_constraints) {
            EXPECT_LT(s->ws.h.lpNorm<Eigen::Infinity>(), 1e-12) << c.deck;
            VecX hd = s->ws.J * s->qd;
            for (int r : s->part.rows) EXPECT_LT(std::abs(hd[r]), 1e-10) << c.deck;
        }
    }
}

TEST(ReducedPartition, UnsupportedElementIsNamed) {
    Model model = load(example("drive_hinge.mbd"));
    SimClock clock;
    try {
        build_reduced_model(model, &clock);
        FAIL() << "drive hinge accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.message()).find("drive hinge"), std::string::npos) << e.message();
    }
}

// The closed-form Lagrange torques of the 2-link arm's trajectory, fed back to the direct
// dynamics (M qdd = tau(t) - (c - Q), M by CRBA, c - Q by Newton-Euler, RK4 at 1e-3 s over 2 s),
// reproduce the trajectory: q within 1e-8 rad (measured 8e-12), qd within 1e-7 rad/s.
TEST(ReducedDynamics, TwoLinkArmTorquesReproduceTheTrajectory) {
    Model model = load(example("reduced_two_link_arm.mbd"));
    SimClock clock;
    ReducedModel m = build_reduced_model(model, &clock);
    Workspace ws = make_workspace(m);
    const double m1 = 2.0, m2 = 1.5, l1 = 1.0, lc1 = 0.5, lc2 = 0.4, I1 = 2.0 / 12,
                 I2 = 1.5 * 0.64 / 12, g = 9.81;
    auto traj = [](double t, VecX& q, VecX& qd, VecX& qdd) {
        q << 0.7 * std::sin(2 * t), -0.4 + 0.9 * std::cos(3 * t);
        qd << 1.4 * std::cos(2 * t), -2.7 * std::sin(3 * t);
        qdd << -2.8 * std::sin(2 * t), -8.1 * std::cos(3 * t);
    };
    auto torques = [&](double t) {
        VecX q(2), qd(2), qdd(2);
        traj(t, q, qd, qdd);
        const double c2 = std::cos(q[1]), hh = m2 * l1 * lc2 * std::sin(q[1]);
        const double M11 =
            m1 * lc1 * lc1 + I1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * c2) + I2;
        const double M12 = m2 * (lc2 * lc2 + l1 * lc2 * c2) + I2, M22 = m2 * lc2 * lc2 + I2;
        const double g12 = m2 * lc2 * g * std::cos(q[0] + q[1]);
        VecX tau(2);
        tau << M11 * qdd[0] + M12 * qdd[1] - hh * (2 * qd[0] * qd[1] + qd[1] * qd[1]) +
                   (m1 * lc1 + m2 * l1) * g * std::cos(q[0]) + g12,
            M12 * qdd[0] + M22 * qdd[1] + hh * qd[0] * qd[0] + g12;
        return tau;
    };
    auto accel = [&](double t, const VecX& q, const VecX& qd) {
        forward_kinematics(m, ws, q, qd, ws.zero);
        compute_loads(m, ws, t);
        inverse_dynamics(m, ws);
        mass_matrix(m, ws);
        return VecX(ws.M.ldlt().solve(torques(t) - ws.tau));
    };
    VecX q(2), qd(2), dummy(2);
    traj(0.0, q, qd, dummy);
    const double h = 1e-3;
    for (int k = 0; k < 2000; ++k) {
        const double t = k * h;
        const VecX a1 = accel(t, q, qd), v1 = qd;
        const VecX v2 = qd + 0.5 * h * a1, a2 = accel(t + 0.5 * h, q + 0.5 * h * v1, v2);
        const VecX v3 = qd + 0.5 * h * a2, a3 = accel(t + 0.5 * h, q + 0.5 * h * v2, v3);
        const VecX v4 = qd + h * a3, a4 = accel(t + h, q + h * v3, v4);
        q += h / 6 * (v1 + 2 * v2 + 2 * v3 + v4);
        qd += h / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
    }
    VecX qe(2), qde(2);
    traj(2.0, qe, qde, dummy);
    EXPECT_LT((q - qe).lpNorm<Eigen::Infinity>(), 1e-8);
    EXPECT_LT((qd - qde).lpNorm<Eigen::Infinity>(), 1e-7);
}

// SingularStepper on the N four-bar (input-examples/n_four_bar.mbd) with a grid point exactly at
// the collinear position theta = 0: from the parallelogram state 10 steps before it (theta from the
// ODE of docs/references.md 6, theta'' = -k cos(theta), k = g 3.5/3, integrated backwards from
// theta = 0, theta' = -sqrt(1 + 2k) by RK4 at h/100), 20 steps of h = 1e-4 s. Crank 0's angle
// against the same ODE forwards within 1e-9 rad and rate within 1e-7 rad/s, the other cranks on the
// parallelogram branch (equal angles) within 1e-9 rad; the stepper saw the crossing.
TEST(ReducedDynamics, SingularStepperAcrossACollinearPosition) {
    Model model = load(example("n_four_bar.mbd"));
    auto s = make_setup(model, {0});  // crank 0's angle independent
    const ReducedModel& m = s->rm;
    const double k = 9.81 * 3.5 / 3.0, h = 1e-4;
    auto ode = [&](double th, double w, double dt, int n) {
        for (int i = 0; i < n; ++i) {
            auto f = [&](double a, double b) { return std::array<double, 2>{b, -k * std::cos(a)}; };
            const auto k1 = f(th, w);
            const auto k2 = f(th + dt / 2 * k1[0], w + dt / 2 * k1[1]);
            const auto k3 = f(th + dt / 2 * k2[0], w + dt / 2 * k2[1]);
            const auto k4 = f(th + dt * k3[0], w + dt * k3[1]);
            th += dt / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]);
            w += dt / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1]);
        }
        return std::array<double, 2>{th, w};
    };
    const auto start = ode(0.0, -std::sqrt(1.0 + 2.0 * k), -h / 100, 1000);
    VecX q = s->q, qd = VecX::Zero(m.nq());
    // q1..q3: the cranks' angles from the vertical; q4, q5: the couplers relative to cranks 0
    // and 1 (horizontal couplers: the opposite angle). Newton then polishes the dependent ones.
    const double d = start[0] - M_PI / 2;
    q << d, d, d, -d, -d;
    ASSERT_TRUE(solve_positions(m, s->ws, s->part, q, 1e-13));
    qd[0] = start[1];
    set_dependent_velocities(m, s->ws, s->part, q, qd, 0.0);
    SingularStepper st;
    for (int i = 0; i < 20; ++i)
        ASSERT_TRUE(st.step(m, s->ws, s->part, q, qd, i * h, (i + 1) * h, 1e-12)) << i;
    const auto end = ode(start[0], start[1], h / 100, 2000);
    EXPECT_NEAR(q[0] + M_PI / 2, end[0], 1e-9);
    EXPECT_NEAR(qd[0], end[1], 1e-7);
    EXPECT_NEAR(q[1], q[0], 1e-9);
    EXPECT_NEAR(q[2], q[0], 1e-9);
    EXPECT_GE(st.crossings(), 1);
}

// The loop multipliers that reduced direct dynamics writes (reactions.hpp) satisfy the reduced
// equations' rows of the independent coordinates, Phi_u = J_u^T lambda: the driven coupler
// (1 degree of freedom, the driven distance a 1-equation cut) over 0.2 s at DT 1e-3: max
// |Phi_u - J_u^T lambda| 2.8e-16 N m at multipliers up to 5.4 N (tolerance 2e-15). The sinks
// get one value block, PREFIX.lam's, one row (joint 4) of one value.
namespace {
class BlockCapture final : public OutputSink, public RunOutput {
  public:
    OutputSink& open(const RunSettings&) override { return *this; }
    std::vector<std::string> files() const override { return {}; }
    std::vector<std::string> write_modal(const ModalColumns&) override { return {}; }
    void begin(const StepView& v) override {
        for (const ValueBlock& b : v.blocks) files_.push_back(b.file);
        if (!v.blocks.empty()) rows = static_cast<int>(v.blocks[0].rows.size());
        if (!v.blocks.empty() && rows > 0) joint = v.blocks[0].rows[0].joint;
    }
    void step(const StepView& v, const StepInfo& s) override {
        if (s.output && !v.blocks.empty())
            max_abs = std::max(max_abs, std::abs(v.blocks[0].values[0]));
    }
    std::vector<std::string> files_;
    int rows = 0;
    long joint = 0;
    double max_abs = 0.0;
};
}  // namespace

TEST(ReducedDynamics, WrittenMultipliersBalanceTheReducedEquations) {
    Model m = load(example("reduced_driven_coupler.mbd"), {{"TF", "0.2"}});
    auto s = make_setup(m);
    BlockCapture out;
    const DynamicsStats st = run_reduced_dynamics(m, *s, out);
    ASSERT_EQ(out.files_, std::vector<std::string>{"lam"});
    EXPECT_EQ(out.rows, 1);
    EXPECT_EQ(out.joint, 4);
    EXPECT_GT(out.max_abs, 1.0);
    EXPECT_LT(st.max_balance, 2e-15);
    std::printf("max |Phi_u - J_u^T lambda| = %.3g, max |lambda| = %.3g\n", st.max_balance,
                out.max_abs);
}
