// Runtime beams in the engine: objectivity (a rigid motion of the initial configuration leaves
// no internal force), the linear cantilever stiffness of one element against the closed form,
// and the private data (names, position against the interpolation, strain rates against
// central differences of the strains along the nodes' velocities, forces against .act values).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/rotations.hpp"
#include "core/source.hpp"
#include "parser/test_support.hpp"
#include "solvers/dae/engine.hpp"

namespace mbs::test {
namespace {

// Nodes 1..3 along a curved, twisted line, all dynamic (no constraints: the residual of the
// beam is the only force besides the momentum terms).
std::string deck(const std::string& beam) {
    return deck_head +
           "begin: control data; structural nodes: 3; rigid bodies: 3; beams: 1; "
           "end: control data;\n"
           "begin: nodes;\n"
           "structural: 1, dynamic, 0., 0., 0., euler123, 0.1, -0.2, 0.3, null, null;\n"
           "structural: 2, dynamic, 0.5, 0.1, -0.05, euler123, 0.4, 0.1, 0.5, null, null;\n"
           "structural: 3, dynamic, 1., 0.15, 0.1, euler123, 0.7, -0.3, 0.8, null, null;\n"
           "end: nodes;\nbegin: elements;\n"
           "body: 1, 1, 1., null, eye;\nbody: 2, 2, 1., null, eye;\nbody: 3, 3, 1., null, eye;\n" +
           beam + "end: elements;\n";
}

const std::string beam3 =
    "beam3: 7, 1, position, 0.01, 0.02, -0.03, orientation, euler123, 0.1, 0.2, -0.1,"
    " 2, null, 3, position, 0.03, -0.01, 0.01, from nodes,"
    " linear viscoelastic generic, sym, 100., 1., 2., 3., 4., 5., 80., 6., 7., 8., 9., 90., 10.,"
    " 11., 12., 40., 1., 2., 50., 3., 60., diag, 1., 2., 3., 0.4, 0.5, 0.6, same, same;\n";

// Sets every node to x = Q x0 + t, R = Q R0 (through Rref, g = 0) with zero velocities.
void rigid_motion(Engine& e, const Mat3& Q, const Vec3& t) {
    for (auto& n : e.nodes()) {
        const int i = n.first_dof();
        Vec3 x(e.y[i], e.y[i + 1], e.y[i + 2]);
        const Mat3 R = n.R;
        x = Q * x + t;
        for (int k = 0; k < 3; ++k) e.y[i + k] = x[k], e.y[i + 3 + k] = 0.0;
        for (int k = 0; k < 12; ++k) e.yp[i + k] = 0.0;
        n.Rref = Q * R;
    }
}

const Element& the_beam(const Engine& e) {
    for (const auto& el : e.elements())
        if (el->label() == 7) return *el;
    throw std::logic_error("no beam");
}

TEST(BeamEngine, RigidMotionLeavesNoForce) {
    for (const char* b : {"beam3", "beam2"}) {
        const std::string card =
            std::string(b) == "beam3"
                ? beam3
                : "beam2: 7, 1, position, 0.01, 0.02, -0.03, 3, null, euler123, 0.3, 0.2, 0.1,"
                  " linear elastic generic, diag, 1.e6, 1.e5, 1.e5, 1.e3, 2.e3, 3.e3;\n";
        Model m = build(deck(card));
        Engine e(m, "dense");
        e.update(0.0, 1e-3);
        const Mat3 Q = rotation_vector_to_matrix(Vec3(2.1, -1.3, 0.7));  // 2.6 rad
        rigid_motion(e, Q, Vec3(3., -2., 1.));
        e.update(0.0, 1e-3);
        std::vector<double> r(e.size(), 0.0);
        the_beam(e).residual(StepContext{0.0, 1e-3, 0.3, Phase::dynamic}, StateView{}, r.data());
        double rmax = 0;
        for (double v : r) rmax = std::max(rmax, std::fabs(v));
        EXPECT_LT(rmax, 1e-9) << b;
    }
}

// One beam3 from (0,0,0) to (L,0,0), node 1 held by the test: a tip force P along y on
// node 3 at small load. The element's strain field is exact for constant shear force and
// linear moment only in the limit; the finite-volume beam3 reproduces the cantilever's tip
// deflection P L^3/(3 EI) + P L/GA exactly (MBDyn's element is exact for this case: constant
// shear, linear moment, quadratic interpolation). Solved by Newton on the static residual.
TEST(BeamEngine, CantileverTipForceOneElement) {
    const double L = 1.0, EI = 2.0, GA = 50.0, P = 1e-6;
    Model m = build(deck_head +
                    "begin: control data; structural nodes: 3; beams: 1; end: control data;\n"
                    "begin: nodes;\n"
                    "structural: 1, static, 0., 0., 0., eye, null, null;\n"
                    "structural: 2, static, 0.5, 0., 0., eye, null, null;\n"
                    "structural: 3, static, 1., 0., 0., eye, null, null;\n"
                    "end: nodes;\nbegin: elements;\n"
                    "beam3: 7, 1, null, 2, null, 3, null, eye, linear elastic generic, diag,"
                    " 1.e3, 50., 50., 10., 2., 2., same, same;\n"
                    "end: elements;\n");
    Engine e(m, "dense");
    const Element& b = the_beam(e);
    const int n = e.size();  // 18: nodes 1..3, x and g
    StepContext c{0.0, 1e-3, 1.0, Phase::assembly};
    // Newton on the 12 unknowns of nodes 2 and 3 (node 1 clamped): J from the element.
    for (int it = 0; it < 5; ++it) {
        e.update(0.0, 1e-3);
        std::vector<double> r(n, 0.0);
        b.residual(c, StateView{e.y.data(), e.yp.data()}, r.data());
        r[12 + 1] += P;
        PatternBuilder pb(n);
        const_cast<Element&>(b).declare(pb);
        Jacobian J(pb);
        J.set_zero();
        b.jacobian(c, StateView{e.y.data(), e.yp.data()}, J);
        Eigen::Matrix<double, 12, 12> A = Eigen::Matrix<double, 12, 12>::Zero();
        const CscMatrix& S = J.matrix();
        for (int col = 0; col < n; ++col)
            for (int k = S.col_start()[col]; k < S.col_start()[col + 1]; ++k)
                if (S.row_index()[k] >= 6 && col >= 6)
                    A(S.row_index()[k] - 6, col - 6) += S.values()[k];
        Eigen::Matrix<double, 12, 1> rr;
        for (int i = 0; i < 12; ++i) rr[i] = r[6 + i];
        const Eigen::Matrix<double, 12, 1> dx = A.fullPivLu().solve(-rr);
        // Assembly phase: the columns are dr/dx, dr/dg (y itself).
        for (int i = 0; i < 12; ++i) e.y[6 + i] += dx[i];
    }
    e.update(0.0, 1e-3);
    const double v = e.y[12 + 1];
    const double ref = P * L * L * L / (3 * EI) + P * L / GA;
    EXPECT_NEAR(v / ref, 1.0, 1e-6) << "tip deflection " << v << " vs " << ref;
    const double rot = e.nodes()[2].g[2] * 1.0;  // small: g ~ rotation
    EXPECT_NEAR(rot / (P * L * L / (2 * EI)), 1.0, 1e-4);
}

TEST(BeamEngine, PrivateData) {
    Model m = build(deck(beam3));
    Engine e(m, "dense");
    std::mt19937 gen(5);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int i = 0; i < e.size(); ++i) e.y[i] += 0.2 * u(gen), e.yp[i] = u(gen);
    e.update(0.0, 1e-3);
    const Element& b = the_beam(e);
    ASSERT_EQ(b.private_data_count(), 54);
    EXPECT_EQ(b.private_data_index("pI.ex"), 0);
    EXPECT_EQ(b.private_data_index("pII.kPz"), 53);
    EXPECT_EQ(b.private_data_index("pII.Omegay"), 27 + 19);
    EXPECT_EQ(b.private_data_index("ex"), -1);
    const StateView sv{e.y.data(), e.yp.data()};
    // Position of point I against the interpolation of the nodes' points.
    const double xi = -1 / std::sqrt(3.0);
    const double N[3] = {0.5 * xi * (xi - 1), 1 - xi * xi, 0.5 * xi * (xi + 1)};
    const Vec3 f[3] = {Vec3(0.01, 0.02, -0.03), Vec3::Zero(), Vec3(0.03, -0.01, 0.01)};
    Vec3 p = Vec3::Zero();
    for (int i = 0; i < 3; ++i) p += N[i] * (e.nodes()[i].x + e.nodes()[i].R * f[i]);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(b.private_data(12 + k, sv), p[k], 1e-12);
    // Strain rates against central differences of the strains along the nodes' motion:
    // x -> x + d xdot, R -> exp(d w) R (through Rref, g and velocities unchanged).
    const double d = 1e-6;
    std::vector<double> ep(12), em(12), rate(12);
    for (int k = 0; k < 6; ++k)
        rate[k] = b.private_data(21 + k, sv), rate[6 + k] = b.private_data(48 + k, sv);
    std::vector<Mat3> Rref0;
    std::vector<Vec3> x0, xd, w;
    for (auto& n : e.nodes()) Rref0.push_back(n.Rref), xd.push_back(n.xdot), w.push_back(n.w);
    for (auto& n : e.nodes())
        x0.push_back(Vec3(e.y[n.first_dof()], e.y[n.first_dof() + 1], e.y[n.first_dof() + 2]));
    for (int sgn = -1; sgn <= 1; sgn += 2) {
        int j = 0;
        for (auto& n : e.nodes()) {
            const Mat3 Rg = cgr_to_matrix(n.g);
            n.Rref = Rg.transpose() * rotation_vector_to_matrix(sgn * d * w[j]) * Rg * Rref0[j];
            for (int k = 0; k < 3; ++k) e.y[n.first_dof() + k] = x0[j][k] + sgn * d * xd[j][k];
            ++j;
        }
        e.update(0.0, 1e-3);
        auto& out = sgn < 0 ? em : ep;
        for (int k = 0; k < 6; ++k)
            out[k] = b.private_data(k, sv), out[6 + k] = b.private_data(27 + k, sv);
    }
    for (int k = 0; k < 12; ++k)
        EXPECT_NEAR(rate[k], (ep[k] - em[k]) / (2 * d), 1e-6 * (1 + std::fabs(rate[k]))) << k;
}

// Piezoelectric actuation at the initial configuration (zero strains: the law gives nothing):
// the section forces are exactly P V of each point, P V added (MBDyn's AddInternalForces), and
// node 1 receives the force of point I in the global frame, R_I (P_I V)_force.
TEST(BeamEngine, PiezoForceIsPV) {
    std::string text = deck(
        "beam3: 7, 1, null, 2, null, 3, null, from nodes, linear elastic generic, diag,"
        " 1.e3, 50., 50., 10., 2., 2., same, same, piezoelectric actuator, 2, 11, 12,"
        " 1., 2., 3., 4., 5., 6., 7., 8., 9., 10., 11., 12.,"
        " -1., 0.5, 2., 1.5, -3., 0.25, 4., -2., 0.5, 1., -1., 3.;\n");
    text.insert(text.find("end: control data;"), "abstract nodes: 2; ");
    text.insert(text.find("end: nodes;"), "abstract: 11, value, 2.;\nabstract: 12, value, -3.;\n");
    Model m = build(text);
    Engine e(m, "dense");
    e.update(0.0, 1e-3);
    const Element& b = the_beam(e);
    const StateView sv{e.y.data(), e.yp.data()};
    const double V[2] = {2., -3.};
    const double P[2][12] = {{1., 2., 3., 4., 5., 6., 7., 8., 9., 10., 11., 12.},
                             {-1., 0.5, 2., 1.5, -3., 0.25, 4., -2., 0.5, 1., -1., 3.}};
    for (int s = 0; s < 2; ++s)
        for (int i = 0; i < 6; ++i) {
            EXPECT_NEAR(b.private_data(27 * s + i, sv), 0.0, 1e-12) << "strain " << i;
            const double pv = P[s][2 * i] * V[0] + P[s][2 * i + 1] * V[1];
            EXPECT_NEAR(b.private_data(27 * s + 6 + i, sv), pv, 1e-12) << s << " " << i;
        }
    const Vec3 phi(b.private_data(15, sv), b.private_data(16, sv), b.private_data(17, sv));
    const Vec3 f_I(b.private_data(6, sv), b.private_data(7, sv), b.private_data(8, sv));
    std::vector<double> r(e.size(), 0.0);
    b.residual(StepContext{0.0, 1e-3, 0.3, Phase::dynamic}, sv, r.data());
    const Vec3 F = rotation_vector_to_matrix(phi) * f_I;
    const int n1 = e.nodes()[0].first_dof();
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(r[n1 + k], F[k], 1e-12) << k;
}

// Errors located at the beam's card: a node without rotations (found by the reader),
// coincident points (found at set-up).
std::string engine_error(const std::string& text) {
    try {
        Model m = build(text);
        Engine e(m, "dense");
    } catch (const InputError& err) {
        return err.where() + ": " + err.message();
    }
    return "no error";
}

TEST(BeamEngine, SetUpErrors) {
    const std::string head =
        deck_head + "begin: control data; structural nodes: 3; beams: 1; end: control data;\n";
    const std::string law = "linear elastic generic, diag, 1., 1., 1., 1., 1., 1.";
    std::string msg = engine_error(head +
                                   "begin: nodes;\n"
                                   "structural: 1, static, 0., 0., 0., eye, null, null;\n"
                                   "structural: 2, static displacement, 0.5, 0., 0., null;\n"
                                   "structural: 3, static, 1., 0., 0., eye, null, null;\n"
                                   "end: nodes;\nbegin: elements;\n"
                                   "beam3: 7, 1, null, 2, null, 3, null, eye, " +
                                   law + ", same, same;\nend: elements;\n");
    EXPECT_NE(msg.find("t.mbd:10:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("needs a structural node with rotations, but node 2"), std::string::npos)
        << msg;
    msg = engine_error(head +
                       "begin: nodes;\n"
                       "structural: 1, static, 0., 0., 0., eye, null, null;\n"
                       "structural: 2, static, 0., 0., 0., eye, null, null;\n"
                       "structural: 3, static, 0., 0., 0., eye, null, null;\n"
                       "end: nodes;\nbegin: elements;\n"
                       "beam3: 7, 1, null, 2, null, 3, null, eye, " +
                       law +
                       ", same, same;\n"
                       "end: elements;\n");
    EXPECT_NE(msg.find("t.mbd:10:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("coincide at evaluation point I"), std::string::npos) << msg;
}

}  // namespace
}  // namespace mbs::test
