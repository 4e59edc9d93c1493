// Rotation parametrisations: CGR exact forms, inverse maps, Euler round trips incl. gimbal lock.
#include "core/rotations.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace mbs;

namespace {
double err(const Mat3& a, const Mat3& b) { return (a - b).norm(); }
}  // namespace

TEST(CGR, MatchesRotationVectorWithTanHalfAngle) {
    std::mt19937 gen(1);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int k = 0; k < 100; ++k) {
        Vec3 axis = Vec3(u(gen), u(gen), u(gen)).normalized();
        double th = 3.0 * u(gen);  // up to +-3 rad (< pi)
        Vec3 g = 2.0 * std::tan(th / 2.0) * axis;
        Mat3 R = cgr_to_matrix(g);
        EXPECT_LT(err(R, rotation_vector_to_matrix(th * axis)), 1e-13);
        EXPECT_LT(err(R.transpose() * R, Mat3::Identity()), 1e-14);
        EXPECT_LT((matrix_to_cgr(R) - g).norm(), 1e-12 * std::max(1.0, g.norm()));
    }
}

TEST(CGR, GMapsParameterRatesToAngularVelocity) {
    // With R(t) = R(g(t)), skew(w) = Rdot R^T and w = G(g) g'. Central differences, h = 1e-6.
    Vec3 g(0.3, -0.2, 0.5), gdot(0.7, 0.1, -0.4);
    double h = 1e-6;
    Mat3 Rdot = (cgr_to_matrix(g + h * gdot) - cgr_to_matrix(g - h * gdot)) / (2 * h);
    Mat3 W = Rdot * cgr_to_matrix(g).transpose();
    Vec3 w(W(2, 1), W(0, 2), W(1, 0));
    EXPECT_LT((w - cgr_G(g) * gdot).norm(), 1e-9);
    EXPECT_LT((W + W.transpose()).norm(), 1e-9);  // skew-symmetric
}

TEST(CGR, SmallParametersAreFirstOrderExact) {
    Vec3 g(1e-9, -2e-9, 3e-9);
    EXPECT_LT(err(cgr_to_matrix(g), Mat3::Identity() + skew(g)), 1e-17);
    EXPECT_LT(err(cgr_G(g), Mat3::Identity() + 0.5 * skew(g)), 1e-17);
    EXPECT_LT((matrix_to_cgr(cgr_to_matrix(g)) - g).norm(), 1e-22);
}

TEST(RotationVector, RoundTripIncludingNearPi) {
    for (double th : {0.0, 1e-10, 0.5, 2.0, M_PI - 1e-7}) {
        Vec3 phi = th * Vec3(1, 2, -2).normalized();
        Vec3 back = matrix_to_rotation_vector(rotation_vector_to_matrix(phi));
        EXPECT_LT((back - phi).norm(), 1e-7) << th;
    }
}

TEST(Euler, RoundTripsForAllSequences) {
    std::mt19937 gen(2);
    std::uniform_real_distribution<double> u(-1.4, 1.4);
    for (int k = 0; k < 50; ++k) {
        Vec3 a(u(gen), u(gen), u(gen));
        EXPECT_LT((matrix_to_euler123(euler123_to_matrix(a)) - a).norm(), 1e-12);
        EXPECT_LT((matrix_to_euler321(euler321_to_matrix(a)) - a).norm(), 1e-12);
        Vec3 b(a[0], std::fabs(a[1]) + 0.1, a[2]);  // 313: middle angle in (0, pi)
        EXPECT_LT((matrix_to_euler313(euler313_to_matrix(b)) - b).norm(), 1e-12);
    }
}

TEST(Euler, GimbalLockReproducesTheMatrix) {
    for (double s : {1.0, -1.0}) {
        Mat3 R = euler123_to_matrix(Vec3(0.4, s * M_PI / 2, 0.3));
        EXPECT_LT(err(euler123_to_matrix(matrix_to_euler123(R)), R), 1e-12);
        Mat3 Q = euler321_to_matrix(Vec3(0.4, s * M_PI / 2, 0.3));
        EXPECT_LT(err(euler321_to_matrix(matrix_to_euler321(Q)), Q), 1e-12);
    }
    for (double b : {0.0, M_PI}) {
        Mat3 R = euler313_to_matrix(Vec3(0.4, b, 0.3));
        EXPECT_LT(err(euler313_to_matrix(matrix_to_euler313(R)), R), 1e-12);
    }
}
