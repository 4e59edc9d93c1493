// Finite-difference checks of module-defined types through the same harness as the built-in
// elements (solvers/dae/test/jacobian_check.hpp): the DC motor element (own differential
// unknown, loads on two rotating nodes), the nonlinear spring-damper law inside a rod (1D) and a
// deformable hinge (3D), and the smooth-step drive's derivative. The modules are loaded by
// absolute path (MBS_MODULE_* definitions from modules/CMakeLists.txt).
#include <gtest/gtest.h>

#include <cmath>

#include "core/drive.hpp"
#include "parser/test_support.hpp"
#include "solvers/dae/test/jacobian_check.hpp"

namespace mbs::test {
namespace {

std::string load(const char* path) { return std::string("module load: \"") + path + "\";\n"; }

// Two free dynamic nodes (rotated, spinning) with bodies, and the motor between them; the axis
// is not a node axis and the voltage varies, so every partial derivative is exercised.
std::string motor_deck() {
    return load(MBS_MODULE_DC_MOTOR) + deck_head +
           "begin: control data; structural nodes: 2; rigid bodies: 2; loadable elements: 1; end: "
           "control data;\n"
           "begin: nodes;\n"
           "  structural: 1, dynamic, 0.1, -0.2, 0.3, euler123, 0.3, -0.2, 0.5, null, 0.4, -1.1, "
           "0.7;\n"
           "  structural: 2, dynamic, 0.5, 0.2, -0.1, euler123, -0.6, 0.1, 0.2, null, 1.3, 0.2, "
           "-0.9;\n"
           "end: nodes;\n"
           "begin: elements;\n"
           "  body: 1, 1, 2., null, diag, 0.1, 0.2, 0.3;\n"
           "  body: 2, 2, 1., null, diag, 0.3, 0.2, 0.1;\n"
           "  user defined: 7, dc motor, 1, 2, axis, 0.3, -0.5, 0.8,\n"
           "      resistance, 2., inductance, 0.05, torque constant, 0.7, voltage, sine, 0., 3., "
           "12., forever, 1.;\n"
           "end: elements;\n";
}

TEST(ModuleJacobian, DcMotor) { expect_exact_jacobian(motor_deck(), 1e-6, 4); }

// The motor alone in the system: the own row's partials with respect to its own unknown at
// another dCoef (J = dr/di' + dCoef dr/di = -L - dCoef R).
TEST(ModuleJacobian, DcMotorOtherCoefficient) {
    for (double dCoef : {1e-4, 2.5}) {
        JacobianCheck r = check_jacobian(motor_deck(), 7, dCoef);
        EXPECT_LT(r.rel(), 1e-6) << "dCoef " << dCoef << ": " << r.max_abs_err << " at " << r.where;
    }
}

// An algebraic own unknown (test module plane_constraint: a multiplier keeping a node on a
// plane): its column is dr/dlambda (the value sits in the y' slot), its row dCoef dphi/dx.
TEST(ModuleJacobian, AlgebraicUnknown) {
    std::string deck =
        load(MBS_MODULE_PLANE_CONSTRAINT) + deck_head +
        "begin: control data; structural nodes: 1; rigid bodies: 1; loadable elements: 1; end: "
        "control data;\n"
        "begin: nodes;\n"
        "  structural: 1, dynamic, 0.1, 0.2, 0.3, euler123, 0.3, -0.2, 0.5, 0.2, 0.1, 0., 0.4, "
        "-1.1, 0.7;\n"
        "end: nodes;\n"
        "begin: elements;\n"
        "  body: 1, 1, 2., null, diag, 0.1, 0.2, 0.3;\n"
        "  user defined: 3, plane constraint, 1, normal, 0.2, -0.4, 1., offset, 0.35;\n"
        "end: elements;\n";
    expect_exact_jacobian(deck, 1e-6, 3);
    for (double dCoef : {1e-3, 3.0}) {
        JacobianCheck r = check_jacobian(deck, 5, dCoef);
        EXPECT_LT(r.rel(), 1e-6) << "dCoef " << dCoef << ": " << r.max_abs_err << " at " << r.where;
    }
}

// A module element that evaluates a deck law (3D, generic non-symmetric K and C: the row-major
// hand-over is checked) scaled by a deck drive (test module parse_probe, `law spring`).
TEST(ModuleJacobian, ElementWithDeckLaw) {
    std::string deck =
        "module load: \"" MBS_MODULE_PARSE_PROBE
        "\", 1, no, \"x\", alpha, null, eye, eye, null;\n" +
        deck_head +
        "begin: control data; structural nodes: 1; rigid bodies: 1; loadable elements: 1; end: "
        "control data;\n"
        "begin: nodes;\n"
        "  structural: 1, dynamic, 0.1, 0.2, 0.3, euler123, 0.3, -0.2, 0.5, 0.2, 0.1, 0., 0.4, "
        "-1.1, 0.7;\n"
        "end: nodes;\n"
        "begin: elements;\n"
        "  body: 1, 1, 2., null, diag, 0.1, 0.2, 0.3;\n"
        "  user defined: 3, law spring, 1, offset, null, frame, eye, anchor, 0.5, -0.2, 0.1,\n"
        "      linear viscoelastic generic, matr, 10., 2., -3., 1., 20., 4., 0.5, -2., 30.,\n"
        "                                   matr, 1., 0.2, 0., -0.3, 2., 0.1, 0.4, 0., 3.,\n"
        "      gain, sine, 0., 2., 0.5, forever, 1.;\n"
        "end: elements;\n";
    expect_exact_jacobian(deck, 1e-6, 3);
}

// The law in a rod (1D, with damping: both K and C are checked) and in a deformable hinge (3D,
// strains of order 1 so the cubic term matters).
TEST(ModuleJacobian, NonlinearSpringLaw) {
    std::string deck =
        load(MBS_MODULE_NONLINEAR_SPRING) + deck_head +
        "begin: control data; structural nodes: 3; rigid bodies: 2; joints: 2; end: control data;\n"
        "begin: nodes;\n"
        "  structural: 1, dynamic, 0., 0., 0., euler123, 0.2, 0.1, -0.3, 0.1, 0.2, 0.3, 0.5, -0.4, "
        "0.2;\n"
        "  structural: 2, dynamic, 1.3, 0.2, -0.1, euler123, -0.4, 0.3, 0.2, -0.5, 0.1, 0.2, 0.3, "
        "0.9, -0.2;\n"
        "  structural: 3, static, 0.2, 0.1, 0.1, eye, null, null;\n"
        "end: nodes;\n"
        "begin: elements;\n"
        "  body: 1, 1, 2., null, diag, 0.1, 0.2, 0.3;\n"
        "  body: 2, 2, 1., null, diag, 0.3, 0.2, 0.1;\n"
        "  joint: 1, rod, 1, position, 0.1, 0.2, 0., 2, position, -0.1, 0., 0.2, 1.,\n"
        "      nonlinear spring damper, 100., 5000., damping, 3.;\n"
        "  joint: 2, deformable hinge, 2, 3, nonlinear spring damper, 20., 300., damping, 0.5;\n"
        "end: elements;\n";
    expect_exact_jacobian(deck, 1e-6, 4);
}

// The smooth step's derivative (used by drives that need f') against central differences, and
// its values at the ends and the middle (f(mid) = (y0 + y1)/2 by symmetry of the quintic).
TEST(ModuleDrive, SmoothStepDerivative) {
    Model m = build(load(MBS_MODULE_SMOOTH_STEP) + deck_head +
                    "begin: control data; end: control data;\n"
                    "drive caller: 1, smooth step, 0.5, 2.5, -1., 3.;\n"
                    "begin: nodes; end: nodes;\n");
    SimClock clock;
    DriveEnv env;
    env.clock = &clock;
    env.model = &m;
    DrivePtr d = make_drive(*m.drive_callers.at(1), env);
    EXPECT_DOUBLE_EQ(d->value(0.0), -1.0);
    EXPECT_DOUBLE_EQ(d->value(3.0), 3.0);
    EXPECT_NEAR(d->value(1.5), 1.0, 1e-15);
    const double h = 1e-6;
    for (double x : {0.2, 0.6, 1.1, 1.5, 2.0, 2.45, 2.7}) {
        double fd = (d->value(x + h) - d->value(x - h)) / (2 * h);
        EXPECT_NEAR(d->deriv(x), fd, 1e-8) << "x = " << x;
    }
}

// A module's scalar function defined inline on a `scalar function` drive caller: its arguments
// (the module's record) and the name it was given, in that order; it evaluates as the drive.
TEST(ModuleDrive, InlineScalarFunctionKeepsItsName) {
    Model m = build(load(MBS_MODULE_SMOOTH_STEP) + deck_head +
                    "begin: control data; end: control data;\n"
                    "drive caller: 1, smooth step, 0.5, 2.5, -1., 3.;\n"
                    "drive caller: 2, scalar function, \"g\", smooth step, 0.5, 2.5, -1., 3.;\n"
                    "begin: nodes; end: nodes;\n");
    const Props outer = m.drive_callers.at(2)->view();
    EXPECT_EQ(outer.get<std::string>("function"), "g");
    auto def = outer.get<std::shared_ptr<const DriveSpec>>("function definition");
    EXPECT_EQ(def->type, "scalarfunctionsmoothstep");
    const Props v = def->view();
    Keys k;
    for (const auto& [name, x] : v.items()) k.push_back(name);
    EXPECT_EQ(k, (Keys{"module", "module drive", "name"}));
    EXPECT_EQ(v.get<std::string>("name"), "g");
    SimClock clock;
    DriveEnv env;
    env.clock = &clock;
    env.model = &m;
    DrivePtr d1 = make_drive(*m.drive_callers.at(1), env);
    DrivePtr d2 = make_drive(*m.drive_callers.at(2), env);
    for (double x : {0.0, 1.1, 1.5, 3.0}) EXPECT_EQ(d2->value(x), d1->value(x)) << "x = " << x;
}

}  // namespace
}  // namespace mbs::test
