// Finite-difference Jacobian tests of the runtime beam3 and beam2 (solvers/dae/test/
// jacobian_check.hpp): random states around the deck's configuration with incremental
// rotations and random reference orientations of every node (relative node rotations of the
// order of a radian), random velocities; elastic, viscous and viscoelastic 6x6 laws with full
// (coupled) matrices; offsets, relative node orientations, absolute and `from nodes` sections.
#include "solvers/dae/test/jacobian_check.hpp"

namespace mbs::test {
namespace {

// Nodes 1..3 along a curved, twisted line (rotated about different axes), nodes 4..5 a second
// set for beam2; node 1 static, the others dynamic with bodies.
std::string deck(int beams, const std::string& elements) {
    return deck_head + "begin: control data; structural nodes: 5; rigid bodies: 4; beams: " +
           std::to_string(beams) +
           "; end: control data;\n"
           "begin: nodes;\n"
           "structural: 1, static, 0., 0., 0., euler123, 0.1, -0.2, 0.3, null, null;\n"
           "structural: 2, dynamic, 0.5, 0.1, -0.05, euler123, 0.4, 0.1, 0.5,"
           " 0.3, -0.1, 0.2, 0.5, 0.4, -0.6;\n"
           "structural: 3, dynamic, 1., 0.15, 0.1, euler123, 0.7, -0.3, 0.8,"
           " -0.2, 0.6, 0.1, -0.3, 0.8, 0.2;\n"
           "structural: 4, dynamic, 0.2, 1., 0.3, euler123, -0.5, 0.2, 1.2,"
           " 0.1, 0.2, 0.3, 0.4, -0.5, 0.6;\n"
           "structural: 5, dynamic, 0.3, 1.6, 0.4, euler123, 0.3, 0.6, 1.4,"
           " -0.4, 0.1, 0.2, -0.3, 0.2, 0.5;\n"
           "end: nodes;\nbegin: elements;\n"
           "body: 101, 2, 2.5, 0.1, -0.2, 0.3, diag, 1., 2., 3.;\n"
           "body: 102, 3, 1.5, -0.3, 0.2, 0.1, diag, 0.5, 0.7, 0.9;\n"
           "body: 103, 4, 2., null, diag, 0.3, 0.4, 0.5;\n"
           "body: 104, 5, 3., null, diag, 0.6, 0.2, 0.4;\n" +
           elements + "end: elements;\n";
}

// Full symmetric stiffness (coupled extension, shear, torsion, bending).
const std::string elastic6 =
    "linear elastic generic, sym, 100., 1., 2., 3., 4., 5., 80., 6., 7., 8., 9., 90., 10., 11., "
    "12., 40., 1., 2., 50., 3., 60.";
const std::string viscous6 =
    "linear viscous generic, sym, 10., 1., 2., 3., 4., 5., 20., 1., 2., 3., 4., 30., 1., 2., 3.,"
    " 4., 1., 2., 5., 1., 6.";
const std::string visco6 =
    "linear viscoelastic generic, sym, 100., 1., 2., 3., 4., 5., 80., 6., "
    "7., 8., 9., 90., 10., 11., 12., 40., 1., 2., 50., 3., 60.,"
    " diag, 1., 2., 3., 0.4, 0.5, 0.6";

std::string beam3(const std::string& sections) {
    return "beam3: 1, 1, position, 0.01, 0.02, -0.03, orientation, euler123, 0.1, 0.2, -0.1,"
           " 2, position, -0.02, 0.01, 0.02,"
           " 3, position, 0.03, -0.01, 0.01, orientation, euler123, -0.2, 0.1, 0.3, " +
           sections + ";\n";
}

TEST(BeamJacobian, Beam3ElasticFromNodes) {
    expect_exact_jacobian(deck(1, beam3("from nodes, " + elastic6 + ", same, same")));
}

TEST(BeamJacobian, Beam3ElasticAbsoluteSections) {
    expect_exact_jacobian(deck(1, beam3("euler123, 0.3, 0.2, 0.6, " + elastic6 +
                                        ", euler123, 0.5, -0.1, 0.7, " + elastic6)));
}

TEST(BeamJacobian, Beam3Viscous) {
    expect_exact_jacobian(deck(1, beam3("from nodes, " + viscous6 + ", same, same")));
}

TEST(BeamJacobian, Beam3Viscoelastic) {
    expect_exact_jacobian(
        deck(1, beam3("from nodes, " + visco6 + ", euler123, 0.5, -0.1, 0.7, " + elastic6)));
}

// A law with a time-dependent prestrain and a prestress.
TEST(BeamJacobian, Beam3Prestrain) {
    expect_exact_jacobian(deck(1, beam3("from nodes, " + visco6 +
                                        ", prestress, 1., 2., 3., 0.1, 0.2, 0.3,"
                                        " prestrain, single, 0.01, 0., 0., 0., 0.1, 0.2,"
                                        " sine, 0., 2., 1., forever, 0., same, same")));
}

std::string beam2(const std::string& section) {
    return "beam2: 2, 4, position, 0.01, -0.02, 0.03, orientation, euler123, 0.2, -0.1, 0.1,"
           " 5, position, -0.03, 0.02, 0.01, " +
           section + ";\n";
}

TEST(BeamJacobian, Beam2Elastic) {
    expect_exact_jacobian(deck(1, beam2("from nodes, " + elastic6)));
}

TEST(BeamJacobian, Beam2AbsoluteViscoelastic) {
    expect_exact_jacobian(deck(1, beam2("euler123, 0.3, 0.4, 1.3, " + visco6)));
}

TEST(BeamJacobian, Beam2Viscous) {
    expect_exact_jacobian(deck(1, beam2("from nodes, " + viscous6)));
}

// beam3 and beam2 sharing node 3 with node 4 (beam2 from node 3 to node 4).
TEST(BeamJacobian, Beam3AndBeam2Together) {
    expect_exact_jacobian(deck(2, beam3("from nodes, " + visco6 + ", same, same") +
                                      "beam2: 2, 3, null, 4, null, from nodes, " + visco6 + ";\n"));
}

// The initial assembly (`use: beams, in assembly;`, Phase::assembly): the beams' terms of the
// assembly matrix are dr/dy (positions and incremental rotations, no dCoef), the residual taken
// at zero strain rates (viscous laws contribute their elastic part only). Central differences
// in y alone (the harness's assembly mode); only the beams are in the assembly here.
double assembly_jacobian_error(const std::string& text, unsigned seed) {
    JacobianCheck r = check_jacobian(text, seed, 1.0, 1e-6, Phase::assembly);
    EXPECT_GT(r.max_abs_J, 1.0) << "the beams are in: their stiffness is there";
    return r.rel();
}

std::string in_assembly(std::string text) {
    const std::string key = "end: control data;";
    text.insert(text.find(key), "use: beams, in assembly; ");
    return text;
}

TEST(BeamJacobian, InitialAssembly) {
    const std::string text = in_assembly(
        deck(2, beam3("from nodes, " + visco6 + ", euler123, 0.5, -0.1, 0.7, " + elastic6) +
                    beam2("from nodes, " + visco6)));
    for (unsigned s = 1; s <= 3; ++s) EXPECT_LT(assembly_jacobian_error(text, s), 1e-6);
}

// Without `use: beams, in assembly;` (MBDyn's default) the beams take no part.
TEST(BeamJacobian, NotInAssemblyByDefault) {
    Model m = build(deck(1, beam3("from nodes, " + elastic6 + ", same, same")));
    Engine e(m, "dense");
    randomize_state(e, 1);
    StepContext c{0.3, 1e-3, 1.0, Phase::assembly};
    e.update(c.time, c.dt);
    e.jacobian(c);
    const CscMatrix& A = e.jac().matrix();
    double mx = 0.0;
    for (int k = 0; k < A.nonzeros(); ++k) mx = std::max(mx, std::fabs(A.values()[k]));
    EXPECT_EQ(mx, 0.0);
}

// Piezoelectric actuators: two electrodes (differential abstract nodes 11 and 12, at random
// values around 3 and -2 like every unknown) with full 6 x 2 coupling matrices. The harness
// compares every column, the voltages' included; PiezoVoltageColumns checks those alone.
std::string with_electrodes(std::string text) {
    text.insert(text.find("end: control data;"), "abstract nodes: 2; ");
    text.insert(text.find("end: nodes;"), "abstract: 11, value, 3.;\nabstract: 12, value, -2.;\n");
    return text;
}
const std::string piezo_I =
    "piezoelectric actuator, 2, 11, 12, 1., -2., 3., 0.5, -4., 2., 1.5, 6., -0.7, 3., 2., -5.";
const std::string matrix_II = "matr, 0.3, 2., -1., 4., 2.5, -0.5, 5., 1., -3., 0.2, 1., 2.";

TEST(BeamJacobian, Beam3PiezoElastic) {
    expect_exact_jacobian(with_electrodes(
        deck(1, beam3("from nodes, " + elastic6 + ", same, same, " + piezo_I + ", " + matrix_II))));
}

TEST(BeamJacobian, Beam3PiezoViscoelastic) {
    expect_exact_jacobian(
        with_electrodes(deck(1, beam3("from nodes, " + visco6 + ", euler123, 0.5, -0.1, 0.7, " +
                                      elastic6 + ", " + piezo_I + ", same"))));
}

TEST(BeamJacobian, Beam2PiezoElasticAndViscous) {
    expect_exact_jacobian(
        with_electrodes(deck(1, beam2("from nodes, " + elastic6 + ", " + piezo_I))));
    expect_exact_jacobian(
        with_electrodes(deck(1, beam2("from nodes, " + viscous6 + ", " + piezo_I))));
}

TEST(BeamJacobian, PiezoInitialAssembly) {
    const std::string text = in_assembly(with_electrodes(
        deck(2, beam3("from nodes, " + visco6 + ", same, same, " + piezo_I + ", " + matrix_II) +
                    beam2("from nodes, " + elastic6 + ", " + piezo_I))));
    for (unsigned s = 1; s <= 3; ++s) EXPECT_LT(assembly_jacobian_error(text, s), 1e-6);
}

// The columns of the voltages alone: J(:, V_e) = dCoef dr/dV_e against central differences of
// the residual in V_e (y_e moved by dCoef h with y'_e by h, as Newton moves them), at a random
// state; the entries must be there (the coupling is of order 1 here) and the abstract nodes'
// own rows get nothing from the beams (no charge, as in MBDyn).
TEST(BeamJacobian, PiezoVoltageColumns) {
    const std::string text = with_electrodes(
        deck(2, beam3("from nodes, " + visco6 + ", same, same, " + piezo_I + ", " + matrix_II) +
                    beam2("from nodes, " + elastic6 + ", " + piezo_I)));
    Model m = build(text);
    Engine e(m, "dense");
    randomize_state(e, 4);
    const double dCoef = 0.37, h = 1e-6;
    StepContext c{0.3, 1e-3, dCoef, Phase::dynamic};
    e.update(c.time, c.dt);
    e.jacobian(c);
    const CscMatrix& A = e.jac().matrix();
    const int n = e.size();
    std::vector<double> rp(n), rm(n);
    for (long label : {11L, 12L}) {
        int col = -1;
        for (const auto& el : e.elements())
            if (el->desc().category == "abstract" && el->label() == label) col = el->first_dof();
        ASSERT_GE(col, 0);
        std::vector<double> Jcol(n, 0.0);
        for (int k = A.col_start()[col]; k < A.col_start()[col + 1]; ++k)
            Jcol[A.row_index()[k]] += A.values()[k];
        const double y0 = e.y[col], yp0 = e.yp[col];
        e.y[col] = y0 + dCoef * h, e.yp[col] = yp0 + h;
        e.update(c.time, c.dt);
        e.residual(c, rp.data());
        e.y[col] = y0 - dCoef * h, e.yp[col] = yp0 - h;
        e.update(c.time, c.dt);
        e.residual(c, rm.data());
        e.y[col] = y0, e.yp[col] = yp0;
        double err = 0.0, mx = 0.0;
        for (int i = 0; i < n; ++i) {
            err = std::max(err, std::fabs(Jcol[i] - (rp[i] - rm[i]) / (2 * h)));
            mx = std::max(mx, std::fabs(Jcol[i]));
        }
        EXPECT_GT(mx, 0.1) << "abstract node " << label;
        EXPECT_LT(err, 2e-7 * mx) << "abstract node " << label;
        EXPECT_EQ(rp[col], rm[col]) << "abstract node " << label << ": no charge term";
    }
}

}  // namespace
}  // namespace mbs::test
