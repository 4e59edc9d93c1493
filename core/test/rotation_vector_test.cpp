// Rotation vector tangent map (core/rotation_vector.hpp): the coefficients a, b, d and their
// derivatives against 60-digit references, Gamma against finite differences of exp, Gamma
// Gamma^-1 = I, and the derivative functions (Gd, E, Gd2, Ginv_d, Ginv_T_d) against central
// differences, at angles on both sides of every series threshold (s = theta^2 = 1e-4, 1e-2,
// 1, 6.25, i.e. theta = 0.01, 0.1, 1, 2.5) and of the thresholds the joints used before (theta =
// 1e-4, 0.05, 0.1). Observed errors are stated at each check; the tolerances are within 10x of
// them.
#include "core/rotation_vector.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace mbs;

namespace {

// a, a', a'', b, b', b'', d, d' (derivatives with respect to s = theta^2) at theta, from the
// series with exact coefficients in 60-digit arithmetic (mpmath; checked against the closed
// forms at theta = 2 and 3 to 1e-60).
struct Ref {
    double th;
    double v[8];
};
const Ref refs[] = {
    {0,
     {5.0e-1, -4.166666666666666667e-2, 2.777777777777777778e-3, 1.666666666666666667e-1,
      -8.333333333333333333e-3, 3.968253968253968254e-4, 8.333333333333333333e-2,
      1.388888888888888889e-3}},
    {1e-8,
     {4.999999999999999958e-1, -4.166666666666666639e-2, 2.777777777777777763e-3,
      1.666666666666666658e-1, -8.333333333333333294e-3, 3.968253968253968237e-4,
      8.333333333333333347e-2, 1.388888888888888896e-3}},
    {1e-3,
     {4.999999583333347222e-1, -4.166666388888896329e-2, 2.777777628968257275e-3,
      1.666666583333335317e-1, -8.333332936507944775e-3, 3.968253802910055916e-4,
      8.333333472222225529e-2, 1.388888955026457507e-3}},
    {0.0099,
     {4.999959162633415879e-1, -4.16663944173813948e-2, 2.777763192988114908e-3,
      1.666658499185726085e-1, -8.333294440555604735e-3, 3.968237762925703313e-4,
      8.333346945865099152e-2, 1.388895371055570416e-3}},
    {0.0101,
     {4.999957495977861405e-1, -4.166638330632981332e-2, 2.777762597752665432e-3,
      1.666658165853980209e-1, -8.333292853260631839e-3, 3.968237101552447176e-4,
      8.333347501423300485e-2, 1.388895635607819302e-3}},
    {0.04,
     {4.999333368887873034e-1, -4.166222241269389778e-2, 2.777539691005119985e-3,
      1.66653333841258554e-1, -8.332698433862023414e-3, 3.967989425685294131e-4,
      8.333555564021502659e-2, 1.388994715344257406e-3}},
    {0.06,
     {4.998500179988429034e-1, -4.165666763090095413e-2, 2.777242106347258355e-3,
      1.666366692379666709e-1, -8.331904869042943858e-3, 3.967658769118270657e-4,
      8.333833376194333684e-2, 1.389127016273737818e-3}},
    {0.099,
     {4.995917583927648405e-1, -4.163944881292071729e-2, 2.77631961325302442e-3,
      1.665850107235170738e-1, -8.329444841668237563e-3, 3.9666337212889104e-4,
      8.334694901068597323e-2, 1.389537341496305807e-3}},
    {0.101,
     {4.995751028353436547e-1, -4.163833829697492271e-2, 2.776260115896161027e-3,
      1.665816789773132999e-1, -8.329286177641659563e-3, 3.966567607771346799e-4,
      8.334750483091752122e-2, 1.389563816376043217e-3}},
    {0.5,
     {4.896697524385091355e-1, -4.097685533722454105e-2, 2.74078142566319065e-3,
      1.645956911663759978e-1, -8.234642121237715812e-3, 3.927105379280760316e-4,
      8.368263535405989496e-2, 1.405579605540907764e-3}},
    {0.999,
     {4.597755848325081485e-1, -3.896746384748330961e-2, 2.632518230609907155e-3,
      1.585448973593093434e-1, -7.945436550374138728e-3, 3.806203121977753664e-4,
      8.47532255582444298e-2, 1.457450209176922995e-3}},
    {1.001,
     {4.596197360357459159e-1, -3.895693491315206927e-2, 2.6319489519897987e-3,
      1.585131186579002829e-1, -7.943914196669929865e-3, 3.805565414593299098e-4,
      8.475905592992699335e-2, 1.457735646757507864e-3}},
    {1.999,
     {3.541634076664308479e-1, -3.168701832281855177e-2, 2.233360599128360093e-3,
      1.36365305833792538e-1, -6.873435446455940077e-3, 3.353551349788386706e-4,
      8.947005149855289677e-2, 1.698872749204221898e-3}},
    {2.0,
     {3.540367091367855967e-1, -3.167808810759129323e-2, 2.23286358567090857e-3,
      1.363378216467897881e-1, -6.872094475447970935e-3, 3.35298033706070181e-4,
      8.947684601641732425e-2, 1.6992357303663318e-3}},
    {2.001,
     {3.539099829767818667e-1, -3.166915541500629739e-2, 2.232366414471128825e-3,
      1.363103290803667447e-1, -6.870753062289241113e-3, 3.352409123324280103e-4,
      8.948364538528414611e-2, 1.699599014634767684e-3}},
    {2.499,
     {2.8831776695164672e-1, -2.696800340915603663e-2, 1.967766093984122409e-3,
      1.217285445771861807e-1, -6.154351839167985892e-3, 3.045440494472212917e-4,
      9.353569741568785941e-2, 1.92393593591117082e-3}},
    {2.501,
     {2.880481852871834755e-1, -2.694833135091453277e-2, 1.966645640981551547e-3,
      1.21667016283808197e-1, -6.151307055285931639e-3, 3.044127351470547665e-4,
      9.355494228872540646e-2, 1.92503883604705856e-3}},
    {3.0,
     {2.211102774000494953e-1, -2.195447511741536573e-2, 1.67805465792234095e-3,
      1.058844441459308436e-1, -5.363503057652390868e-3, 2.701688983803660339e-4,
      9.929197039400236965e-2, 2.269674848916882159e-3}},
    {3.1,
     {2.080265504966992159e-1, -2.094901061807667684e-2, 1.618836142141030761e-3,
      1.026625268559870236e-1, -5.20088605989915999e-3, 2.630291197408492775e-4,
      1.007035427355657541e-1, 2.359330781250743562e-3}},
};

const double angles[] = {0.0, 1e-8,  1e-4,  1e-3,  0.0099, 0.0101, 0.04,  0.05,  0.06, 0.099, 0.101,
                         0.5, 0.999, 1.001, 1.999, 2.0,    2.001,  2.499, 2.501, 3.0,  3.1};

const Vec3 n_axis = Vec3(0.3, -0.5, 0.8).normalized();
const Vec3 v1(0.7, 0.2, -0.4), v2(-0.3, 0.9, 0.5), v3(0.6, -0.1, 0.35);

// Prints the observed errors with MBS_PRINT_ERRORS=1 (how the numbers in the comments were taken).
void report(const char* what, double th, double err) {
    if (std::getenv("MBS_PRINT_ERRORS")) std::printf("%-12s theta=%-7g %.2e\n", what, th, err);
}

double rel(double x, double ref) { return std::fabs(x - ref) / std::fabs(ref); }

// Central difference of f along phi's coordinates: column j = (f(phi + h e_j) - f(phi - h e_j))/2h.
template <class F>
Mat3 central(const Vec3& phi, double h, F f) {
    Mat3 D;
    for (int j = 0; j < 3; ++j) {
        Vec3 e = Vec3::Zero();
        e[j] = h;
        D.col(j) = (f(Vec3(phi + e)) - f(Vec3(phi - e))) / (2.0 * h);
    }
    return D;
}

}  // namespace

// The series (theta < 2.5) are exact to round-off; the closed forms (theta >= 2.5) lose a little
// in the derivatives. Observed max relative errors: series values 1.8e-16, series derivatives
// 2.2e-16; closed forms values 1.9e-16, derivatives 1.6e-15 (theta = 2.501).
TEST(RotationVector, CoefficientsMatchReferences) {
    double worst[4] = {0, 0, 0, 0};  // series values, series derivatives, closed values, closed d.
    for (const Ref& r : refs) {
        const double s = r.th * r.th;
        const rotvec::Coef c = rotvec::coefficients(s);
        const rotvec::Coef c0 = rotvec::coefficients(s, false);
        const rotvec::InverseCoef ci = rotvec::inverse_coefficients(s);
        const double got[8] = {c.a, c.a1, c.a2, c.b, c.b1, c.b2, ci.d, ci.d1};
        const bool series = s < 6.25;
        double e_val = 0, e_der = 0;
        for (int k = 0; k < 8; ++k) {
            const bool value = k == 0 || k == 3 || k == 6;
            (value ? e_val : e_der) = std::max(value ? e_val : e_der, rel(got[k], r.v[k]));
        }
        EXPECT_EQ(c0.a, c.a) << r.th;
        EXPECT_EQ(c0.b, c.b) << r.th;
        report("values", r.th, e_val);
        report("derivatives", r.th, e_der);
        double* w = worst + (series ? 0 : 2);
        w[0] = std::max(w[0], e_val), w[1] = std::max(w[1], e_der);
    }
    EXPECT_LT(worst[0], 1e-15);
    EXPECT_LT(worst[1], 1e-15);
    EXPECT_LT(worst[2], 1e-15);
    EXPECT_LT(worst[3], 5e-15);
}

// dR R^T = [Gamma dphi]: central differences of exp along dphi, h = 1e-5 (truncation ~h^2).
// Observed |W - Gamma dphi| at most 3.7e-11, and 3.7e-11 for R^T dR = [Gamma^T dphi].
TEST(RotationVector, GammaIsTheSpatialTangentOfExp) {
    const double h = 1e-5;
    for (double th : angles) {
        const Vec3 phi = th * n_axis;
        for (const Vec3& dphi : {v1, v2, Vec3(n_axis)}) {
            const Mat3 W = (rotation_vector_to_matrix(phi + h * dphi) -
                            rotation_vector_to_matrix(phi - h * dphi)) /
                           (2.0 * h) * rotation_vector_to_matrix(phi).transpose();
            const double e = (axial(W) - rotvec::Gamma(phi) * dphi).norm();
            report("Gamma fd", th, e);
            EXPECT_LT(e, 1e-10) << th;
            // The right Jacobian: R^T dR = [Gamma^T dphi].
            const Mat3 Wr = rotation_vector_to_matrix(phi).transpose() *
                            (rotation_vector_to_matrix(phi + h * dphi) -
                             rotation_vector_to_matrix(phi - h * dphi)) /
                            (2.0 * h);
            const double er = (axial(Wr) - rotvec::Gamma(phi).transpose() * dphi).norm();
            report("Gamma^T fd", th, er);
            EXPECT_LT(er, 1e-10) << th;
        }
    }
}

// Observed |Gamma Gamma^-1 - I| and |Gamma^-1 Gamma - I| at most 4.1e-16.
TEST(RotationVector, GammaInverse) {
    for (double th : angles) {
        const Vec3 phi = th * n_axis;
        const Mat3 G = rotvec::Gamma(phi), Gi = rotvec::Gamma_inverse(phi);
        const double e =
            std::max((G * Gi - Mat3::Identity()).norm(), (Gi * G - Mat3::Identity()).norm());
        report("G Ginv - I", th, e);
        EXPECT_LT(e, 2e-15) << th;
    }
}

// Derivatives against central differences of the functions they differentiate, h = 1e-5.
// Observed errors at most: Gd 1.5e-11, Gd2 9.2e-12, Ginv_d 1.7e-11, Ginv_T_d 1.7e-11; E(phi, w) v
// and Gd(phi, v) w agree to 8.9e-17.
TEST(RotationVector, DerivativesMatchCentralDifferences) {
    const double h = 1e-5;
    for (double th : angles) {
        const Vec3 phi = th * n_axis + 0.1 * th * v3;  // off the axis of v1, v2
        const Mat3 gd = central(phi, h, [](const Vec3& p) { return Vec3(rotvec::Gamma(p) * v1); });
        const double e_gd = (rotvec::Gd(phi, v1) - gd).norm();
        const Mat3 gd2 =
            central(phi, h, [](const Vec3& p) { return Vec3(rotvec::Gd(p, v1) * v2); });
        const double e_gd2 = (rotvec::Gd2(phi, v1, v2) - gd2).norm();
        const double e_e = (rotvec::E(phi, v2) * v1 - rotvec::Gd(phi, v1) * v2).norm();
        const Mat3 gid =
            central(phi, h, [](const Vec3& p) { return Vec3(rotvec::Gamma_inverse(p) * v3); });
        const double e_gid = (rotvec::Ginv_d(phi, v3) - gid).norm();
        const Mat3 gitd = central(
            phi, h, [](const Vec3& p) { return Vec3(rotvec::Gamma_inverse(p).transpose() * v3); });
        const double e_gitd = (rotvec::Ginv_T_d(phi, v3) - gitd).norm();
        report("Gd", th, e_gd);
        report("Gd2", th, e_gd2);
        report("E", th, e_e);
        report("Ginv_d", th, e_gid);
        report("Ginv_T_d", th, e_gitd);
        EXPECT_LT(e_gd, 1e-10) << th;
        EXPECT_LT(e_gd2, 5e-11) << th;
        EXPECT_LT(e_e, 5e-16) << th;
        EXPECT_LT(e_gid, 1e-10) << th;
        EXPECT_LT(e_gitd, 1e-10) << th;
    }
}
