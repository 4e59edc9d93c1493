// Finite-difference Jacobians (solvers/dae/test/jacobian_check.hpp) of the scalar genels and
// abstract forces (genel_elements.cpp) on abstract nodes (differential and algebraic) and on
// the position components of a structural node, at random states and dCoef = 0.37.
#include <gtest/gtest.h>

#include <string>

#include "solvers/dae/test/jacobian_check.hpp"

namespace {

const std::string head =
    "begin: data; problem: initial value; end: data;\n"
    "begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; end: initial "
    "value;\n";

std::string deck(const std::string& control, const std::string& nodes,
                 const std::string& elements) {
    return head + "begin: control data;\n" + control + "end: control data;\nbegin: nodes;\n" +
           nodes + "end: nodes;\nbegin: elements;\n" + elements + "end: elements;\n";
}

const std::string abstract_nodes =
    "abstract: 1, differential, value, 0.3;\n"
    "abstract: 2, algebraic, value, 0.2;\n"
    "abstract: 3, value, -0.1, derivative, 0.4;\n";

TEST(GenelJacobian, ClampOnValueDerivativeAndAlgebraicValue) {
    mbs::test::expect_exact_jacobian(
        deck("abstract nodes: 3; genels: 3;\n", abstract_nodes,
             "genel: 1, clamp, 1, abstract, algebraic, sine, 0., 2., 1., forever, 0.;\n"
             "genel: 2, clamp, 2, abstract, algebraic, const, 0.5;\n"
             "genel: 3, clamp, 3, abstract, differential, time;\n"));
}

TEST(GenelJacobian, SpringSupportViscoelasticAndMass) {
    mbs::test::expect_exact_jacobian(
        deck("abstract nodes: 3; genels: 4;\n", abstract_nodes,
             "genel: 1, spring support, 1, abstract, algebraic, linear viscoelastic, 18., 0.7,\n"
             "    position, 0.05;\n"
             "genel: 2, mass, 1, abstract, differential, const, 2.;\n"
             "genel: 3, spring support, 3, abstract, algebraic, linear elastic, 5.;\n"
             "genel: 4, mass, 3, abstract, differential, linear, 1., 0.5;\n"));
}

TEST(GenelJacobian, AbstractForcesAndInternalForce) {
    mbs::test::expect_exact_jacobian(
        deck("abstract nodes: 3; genels: 2; forces: 2;\n", abstract_nodes,
             "genel: 1, mass, 1, abstract, differential, const, 2.;\n"
             "genel: 2, mass, 3, abstract, differential, const, 3.;\n"
             "force: 1, abstract, 1, abstract, time;\n"
             "force: 2, abstract internal, 1, abstract, 3, abstract, const, 0.7;\n"));
}

TEST(GenelJacobian, DistanceSpringAndCrossSpringSupport) {
    mbs::test::expect_exact_jacobian(
        deck("abstract nodes: 3; genels: 5;\n", abstract_nodes,
             "genel: 1, distance, 1, abstract, algebraic, 3, abstract, algebraic, time;\n"
             "genel: 2, distance, 1, abstract, differential, 2, abstract, algebraic, const, "
             "0.1;\n"
             "genel: 3, spring, 1, abstract, algebraic, 3, abstract, differential, linear "
             "elastic, 7.;\n"
             "genel: 4, cross spring support, 2, abstract, algebraic, 3, abstract, algebraic,\n"
             "    linear viscoelastic, 4., 0.6;\n"
             "genel: 5, spring, 2, abstract, algebraic, 1, abstract, algebraic, linear elastic, "
             "3.;\n"));
}

TEST(GenelJacobian, GenelsOnStructuralPositions) {
    mbs::test::expect_exact_jacobian(
        deck("structural nodes: 1; genels: 3;\n",
             "structural: 1, dynamic, 0.1, 0.2, 0.3, eye, 0.5, 0., 0., null;\n",
             "genel: 1, clamp, 1, structural, 1, algebraic, const, 0.1;\n"
             "genel: 2, mass, 1, structural, 2, differential, const, 3.;\n"
             "genel: 3, spring support, 1, structural, 3, algebraic, linear viscoelastic, 4., "
             "0.3;\n"));
}

}  // namespace
