// Card readers for `beam3` (alias `beam`) and `beam2` (docs/deck-language.md 5.3; the parts both
// share, with the piezo and custom output syntax, in beam.cpp).
//   beam3: L, n1, [position,] off1 [, {orientation|rot}, R1], n2, ... , n3, ...,
//          {<OrMat abs section I> | from nodes}, <6D CL I>,
//          {same | <OrMat section II> | from nodes}, {same | <6D CL II>}
//          [, <piezo>] [, custom output, <flags>...]
//   beam2: L, n1, ..., n2, ..., {<OrMat section> | from nodes}, <6D CL> [, <piezo>]
//          [, custom output, ...]
// Section orientations are absolute (axis 1 = beam axis). `from nodes` interpolates the
// orientation from the node orientations (each times its relative `orientation`) as MBDyn does:
// with Cayley-Gibbs-Rodrigues parameters g (R = exp of g, g = 2 tan(theta/2) n) relative to
// node 2 (beam3) or node 2's frame (beam2), interpolated with the element's shape functions at
// the evaluation points: xi = -+1/sqrt(3) (beam3), the midpoint (beam2). That is all the relative
// orientations of the beam nodes are for, in MBDyn too: the runtime beam interpolates the nodes'
// rotations since the start, whatever their frames (below).
// Typed spec: BeamSpec (beam.hpp): the nodes (offsets and orientations in the node frames), the
// sections (orientation, whether from the nodes, law, piezo matrix), the electrodes and the
// custom output; its generic view keeps the names of the props the readers used to store.
//
// Runtime finite-volume beams: beam3 (three nodes, evaluation points xi = -+1/sqrt(3)) and beam2
// (two nodes, evaluation point at mid-span) (docs/deck-language.md 5.3). MBDyn's
// formulation (beam.cc, beam2.cc): strains at the evaluation points from interpolated positions
// and orientations, a 6D law there, and the internal forces applied to the nodes as the balance
// of each node's "volume" (the piece of beam between two evaluation points). Geometrically
// exact: no small-rotation assumption anywhere.
//
// Notation (global frame unless said otherwise). Node i: x_i, R_i (R_i0 at the start), offset
// f_i; a_i = R_i f_i, p_i = x_i + a_i (points of the beam line). The reference node r is the
// middle node of beam3 and node 2 of beam2. The orientation interpolated is each node's rotation
// since the start, and Ra that of the reference node:
//   Rn_i = R_i R_i0^T  (I at the start; dRn_i = [dth_i] Rn_i, as dR_i = [dth_i] R_i),  Ra = Rn_r.
// Orientation parameters of the other nodes relative to Ra: rotation vectors (R(g) = exp([g]),
// G(g) = Gamma(g) the tangent with dR R^T = [G dg]; core/rotation_vector.hpp):
//   g_i = log(Ra^T Rn_i),  g_r = 0   (all 0 at the start).
// Shape functions N_i(xi) (beam3: xi(xi-1)/2, 1-xi^2, xi(xi+1)/2; beam2: (1-xi)/2, (1+xi)/2),
// N_i' = dN_i/dxi * dxi/ds with ds/dxi = |sum dN_i/dxi p_i| in the initial configuration.
// At an evaluation point:
//   p = sum N_i p_i,  p' = sum N_i' p_i,  g = sum N_i g_i,  g' = sum N_i' g_i
//   R = Ra R(g) Ro       section frame; Ro constant, from the section orientation of the card
//   T = Ro^T R(g)^T      (R^T = T Ra^T)
//   nu    = R^T p' - nu0              linear strains (axial, shear y, shear z)
//   kappa = T G(g) g' - kappa0        curvatures (R^T R' = [T G(g) g'])
// nu0, kappa0: the same at the initial configuration, by the same operations, so that the
// strains start at exactly zero, as MBDyn's.
// This is a total formulation of MBDyn's interpolation of the orientation parameters (MBDyn
// interpolates the incremental parameters of each step and accumulates the curvature): it is
// path independent and objective (only relative rotations enter).
//
// Why rotation vectors. Exactness in uniform bending and twist: let the rotation since the start
// be Rn(s) = Ra exp((s - s_r) [k]) along the beam (k constant: a change of curvature and twist
// uniform along the element, e.g. the roll-up of a cantilever under an end couple, a helix).
// Then g_i = (s_i - s_r) k, linear in the arc length; the shape functions reproduce linear
// functions and, for nodes equally spaced along the initial line (s = sum N_i s_i linear in xi,
// ds/dxi constant), g(xi) = (s(xi) - s_r) k and g' = k exactly. G(g) g' = k (g parallel to k:
// [g] k = 0) and R(g)^T k = k, so kappa + kappa0 = Ro^T k at every point: the element has the
// exact uniform curvature, and the nodes' rotations in equilibrium under a uniform moment are
// the exact ones, whatever the number of elements. With Cayley-Gibbs-Rodrigues parameters
// (g_i = 2 tan(theta_i/2) n, as this beam had before) the interpolation is linear in tan(theta/2):
// the section angle 2 atan(xi tan(theta/2)) is not linear in xi, the curvature is off by O(theta^3)
// relative between the points and the nodes, and the roll-up's tip rotation drifted with the
// rotation (2.1e-5 rad at the full circle, 20 elements; now round-off).
// Rigid motion: Rn_i = Q for all i gives g_i = log(I) = 0 (round-off), R = Q R_0 and, with
// p_i = c + Q p_i0, R^T p' = R_0^T p_0': the strains stay zero to round-off.
// What is not exact: positions are interpolated quadratically, and a parabola is not a circle.
// In uniform bending with node rotations -+theta about the middle node and nu = 0 at the points
// xi = -+1/sqrt(3) (a point's tangent at angle -+theta/sqrt(3)), p' = (p_3 - p_1)/2 + xi (p_1 -
// 2 p_2 + p_3) gives the chord p_3 - p_1 = 2 h cos(theta/sqrt(3)) (h = ds/dxi), where the arc's is
// 2 h sin(theta)/theta: the chord is long by theta^4 h (1/120 - 1/216) + O(theta^6), the same in
// MBDyn (whose tip, like ours, is off the roll-up's circle by 6e-6 L at the half circle with 7
// elements, and back at the root, by symmetry, at the full circle).
//
// Why the node rotations since the start, and not the node frames. MBDyn updates a section frame
// with the nodes' incremental parameters of the step, gNod_i = cgr(R_i,new R_i,old^T):
// R_s <- R(sum N_i gNod_i) R_s. The node frames R_i, and the relative orientations Rf_i of the
// card (`orientation` after a beam node), do not enter; MBDyn uses Rf_i only for the `from nodes`
// section frames (computed by the readers, read_beam3 and read_beam2) and the sections' initial
// angular velocity. Here, with Delta_i = Rn_i and gamma_i = log(Delta_r^T Delta_i) = g_i, Ra(0) = I
// and so Ro = R_s0 (the section frame of the card): R_s = Delta_r R(gamma(s)) R_s0, and for node
// rotations dth_i
//   dR_s R_s^T = dth_r + Delta_r G(gamma) sum N_i G(gamma_i)^-1 Delta_r^T (dth_i - dth_r)
//              = sum N_i dth_i + O(|gamma| |dth|),
// MBDyn's rule; gamma is the relative rotation the deformation makes between the nodes of one
// element, small for any beam fine enough to be accurate. Interpolating the frames
// Rn_i = R_i Rf_i instead puts the constant rotation B_i = (R_r0 Rf_r)^T R_i0 Rf_i between the
// frames of nodes r and i into g_i: the section rotation becomes
// dth_r + Ra G(g) sum N_i G(g_i)^-1 Ra^T (dth_i - dth_r), sum N_i dth_i only while every g_i is
// small. Frames far apart put large rotations into g_i (with CGR parameters, 98 or 149 degrees
// gave |G(g_i)^-1| = 2.3, 14), and parameters that reach 180 degrees in the motion are
// singular. With Rn_i = R_i R_i0^T the beam is the same whatever
// the node frames: its twin with node frames aligned to the section frame has the same residual
// to round-off (test/beam_offset_engine_test.cpp).
//
// Strain rates (used by viscous and viscoelastic laws) are the exact time derivatives:
//   nudot    = R^T (pdot' - w_s x p'),       pdot' = sum N_i' (xdot_i + w_i x a_i)
//   kappadot = R^T w_s' = T (Gd(g, gdot) g' + G(g) gdot')
// with the section's angular velocity w_s = w_r + Ra G(g) gdot, the parameter rates
// gdot_i = G(g_i)^-1 Ra^T (w_i - w_r), gdot = sum N_i gdot_i, gdot' = sum N_i' gdot_i, and
// Gd(g, v) = d(G(g) v)/dg.
//
// Law: [f; m] = law([nu; kappa], [nudot; kappadot], t) in the section frame; F = R f, M = R m.
// Node balance (section s between its backward node b and forward node f; beam3: sections
// (1,2), (2,3); beam2: (1,2)):
//   node b:  force +F,  moment +(M + (p_s - x_b) x F)
//   node f:  force -F,  moment -(M + (p_s - x_f) x F)
// (F is the force the part of the beam beyond the section exerts on the part before it.)
//
// Piezoelectric actuation (`piezoelectric actuator` on the card; MBDyn's PiezoActuatorBeam and
// PiezoActuatorBeam2, pzbeam.cc, pzbeam2.cc): the voltages V (N electrodes, the values of
// differential abstract nodes) add P V to the law's output at each point, P = [Pnu; Pk] the
// card's 6 x N matrix of the point:
//   [f; m] = law([nu; kappa], [nudot; kappadot], t) + P V     (section frame)
// so the node balance, the geometric stiffness, the .act and the private data all include it.
// The electrodes' rows get nothing (MBDyn's beam returns no charge to them).
//
// Inertia is not part of the element: as in MBDyn practice, bodies on the beam nodes carry it
// (input-examples/beam_cantilever_vibration.mbd shows the lumping).
//
// Output (.act, MBDyn's Beam::Output): label, f(3), m(3) at point I in the section frame, then
// f(3), m(3) at point II for beam3, then the custom output columns (output_values()); the .log
// line names the nodes and offsets (log_line()). The points' positions p and section frames R
// (MBDyn's NetCDF X_I, R_I, ...) go to the NetCDF/HDF5 results only (points(), beam.hpp). Private
// data: see private_data_count().
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/constitutive_law.hpp"
#include "core/log_line.hpp"
#include "core/registry.hpp"
#include "core/rotation_vector.hpp"
#include "core/rotations.hpp"
#include "elements/beams/beam.hpp"
#include "elements/genels/scalar_dof.hpp"
#include "elements/misc/card_helpers.hpp"
#include "elements/misc/element_util.hpp"

namespace mbs {
namespace {

using Mat6 = Eigen::Matrix<double, 6, 6>;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using el::Mat63;

// 3 x 3 product written out by columns (Eigen's generic small-product kernels cost about twice
// the instructions here; the Jacobian is made of ~100 such products).
[[gnu::always_inline]] inline Mat3 mul(const Mat3& a, const Mat3& b) {
    Mat3 c;
    for (int j = 0; j < 3; ++j)
        c.col(j) = a.col(0) * b(0, j) + a.col(1) * b(1, j) + a.col(2) * b(2, j);
    return c;
}

// Per-node quantities at the current iterate (see Beam).
struct NodeK {
    Vec3 a, p, g = Vec3::Zero();
    Mat3 H, Ginv;  // G(g_i)^-1 Ra^T, G(g_i)^-1 (nodes other than the reference)
    Vec3 v, gd;    // w_i - w_r, gdot_i
    Mat3 QH;       // d(G^-1(g) z_i)/dg at g_i, times H_i
};
// Quantities at an evaluation point (see Beam).
struct SecK {
    Vec3 p, pp, g, gp;
    Mat3 G, R, T;
    Vec6 e, ed = Vec6::Zero(), fl;
    Mat6 K, C;
    Vec3 gd, gdp, y1, ws, u, y2;  // rates (viscous laws only)
};

// NN nodes, NN - 1 evaluation points.
template <int NN>
class Beam final : public Element {
  public:
    static constexpr int NS = NN - 1;
    static constexpr int ref = 1;  // reference node: the middle node (beam3), node 2 (beam2)

    struct Section {
        double N[NN], Np[NN];  // shape functions and their s-derivatives at the point
        Mat3 Ro;               // section frame relative to Ra R(g)
        Vec3 nu0, k0;          // initial strains
        Mat3 Rsec0;            // initial section frame (absolute)
        LawPtr<6> law;
    };

    // The nodes are at their initial configuration (R_i0: see the file comment).
    Beam(const EntityDesc& d, std::array<StructNode*, NN> nodes, std::array<Vec3, NN> f)
        : Element(d), n_(nodes), f_(f) {
        for (int i = 0; i < NN; ++i) R0T_[i] = n_[i]->R.transpose();
    }

    Section& section(int s) { return sec_[s]; }

    // Shape functions, metric and initial strains from the nodes' initial configuration.
    // Returns false if the metric is singular (coincident points).
    bool init_geometry(int s, double xi) {
        Section& S = sec_[s];
        double dN[NN];
        if constexpr (NN == 3) {
            S.N[0] = 0.5 * xi * (xi - 1.0), S.N[1] = 1.0 - xi * xi, S.N[2] = 0.5 * xi * (xi + 1.0);
            dN[0] = xi - 0.5, dN[1] = -2.0 * xi, dN[2] = xi + 0.5;
        } else {
            S.N[0] = 0.5 * (1.0 - xi), S.N[1] = 0.5 * (1.0 + xi);
            dN[0] = -0.5, dN[1] = 0.5;
        }
        Vec3 dp = Vec3::Zero();
        for (int i = 0; i < NN; ++i) dp += dN[i] * (n_[i]->x + n_[i]->R * f_[i]);
        const double dsdxi = dp.norm();
        if (!(dsdxi > 1e-12)) return false;
        for (int i = 0; i < NN; ++i) S.Np[i] = dN[i] / dsdxi;
        // Ro from the absolute section frame: R = Ra R(g) Ro at the start.
        NodeK nk[NN];
        const Mat3 Ra = node_kin(nk, false, false);
        Vec3 g = Vec3::Zero();
        for (int i = 0; i < NN; ++i)
            if (i != ref) g += S.N[i] * nk[i].g;
        S.Ro = (Ra * rotation_vector_to_matrix(g)).transpose() * S.Rsec0;
        // nu0, kappa0 by the operations of every later evaluation, so that the strains of the
        // initial configuration are exactly zero, as MBDyn's (its increments start at zero).
        // Node frames off the identity make Ra and g exact only to round-off (R_i R_i0^T), and
        // 1e-16 of EA = 1e7 N is a force of 1e-9 N that a tight tolerance cannot pass.
        S.nu0.setZero(), S.k0.setZero();
        SecK k;
        section_kin(s, Ra, nk, false, k);
        S.nu0 = k.e.template head<3>(), S.k0 = k.e.template tail<3>();
        return true;
    }

    bool viscous() const {
        for (const Section& S : sec_)
            if (S.law->kind() & law_viscous) return true;
        return false;
    }

    void declare(PatternBuilder& p) override {
        for (int k = 0; k < NN; ++k)
            for (int j = 0; j < NN; ++j)
                blocks_[k][j] = p.block(n_[k]->first_dof(), 6, n_[j]->first_dof(), 6);
        for (Electrode& el : piezo_)
            for (int k = 0; k < NN; ++k)
                el.blocks[k] = p.block(n_[k]->first_dof(), 6, el.dof.index(), 1);
    }

    // Node balance of the file comment. Elastic beams (and every beam in the initial assembly,
    // where the strain rates are taken as zero: positions only) reuse the kinematics of the
    // last evaluation at the same node configuration (kinematics()).
    void residual(const StepContext& c, const StateView& st, double* r) const override {
        if (!viscous_ || c.phase == Phase::assembly) {
            Kin& K = kinematics();
            for (int s = 0; s < NS; ++s) {
                SecK& k = K.k[s];
                law_eval(s, k, c.time, st);
                add_section_wrench(s, k, r);
            }
            return;
        }
        NodeK nk[NN];
        const Mat3 Ra = node_kin(nk, true, true);
        for (int s = 0; s < NS; ++s) {
            SecK k;
            section_kin(s, Ra, nk, true, k);
            law_eval(s, k, c.time, st);
            add_section_wrench(s, k, r);
        }
    }

    void add_section_wrench(int s, const SecK& k, double* r) const {
        const Vec3 F = k.R * k.fl.template head<3>(), M = k.R * k.fl.template tail<3>();
        const StructNode &b = *n_[s], &f = *n_[s + 1];
        el::add_wrench(r, b, F, M + (k.p - b.x).cross(F));
        el::add_wrench(r, f, -F, -M - (k.p - f.x).cross(F));
    }

    // Jacobian. Virtual displacements dx_j and rotations dth_j (dRn_j = [dth_j] Rn_j); for node
    // j the derivatives below are 3 x 3 blocks, delta_jr = 1 for the reference node.
    //   dp_i = dx_i - [a_i] dth_i;  dp = sum N_i dp_i,  dp' = sum N_i' dp_i
    //   dg_i = H_i (dth_i - dth_r),  H_i = G(g_i)^-1 Ra^T        (Ra^T Rn_i = R(g_i))
    //   Dg_j = dg/dth_j = N_j H_j (j != r),  -sum_{i != r} N_i H_i (j = r);  Dg'_j with N'
    //   section rotation dphi = dth_r + Ra G Dg dth:  Dphi_j = delta_jr I + Ra G Dg_j
    //   dnu/dx_j = N_j' R^T,  dnu/dth_j = R^T (-N_j' [a_j] + [p'] Dphi_j)
    //   dkappa/dth_j = T (A Dg_j + G Dg'_j),  A = Gd(g, g') + [G g'] G
    //     (d(T y) = T ([y] G dg + dy): dR(g)^T y = R(g)^T [y] G dg)
    // The rates are linear in the velocities with the same matrices (nudot = dnu/dx xdot +
    // dnu/dth w, ...), so d(rates)/d(xdot_j, w_j) = d(strains)/d(x_j, th_j). At fixed
    // velocities, with y1 = G gdot, w_s = w_r + Ra y1, u = pdot' - w_s x p',
    // y2 = Gd(g, gdot) g' + G gdot', v_i = w_i - w_r, z_i = Ra^T v_i, gdot_i = G(g_i)^-1 z_i:
    //   Dgdot_j = N_j Q_j H_j (j != r);  sum_{i != r} N_i (-Q_i H_i + G(g_i)^-1 Ra^T [v_i]) (j = r)
    //     Q_i = d(G^-1(g) z_i)/dg at g_i;  Dgdot'_j the same with N'
    //   Dws_j = -delta_jr [Ra y1] + Ra (Gd(g, gdot) Dg_j + G Dgdot_j)
    //   dnudot/dx_j  = -N_j' R^T [w_s]
    //   dnudot/dth_j = R^T (N_j' ([w_s] - [w_j]) [a_j] + [p'] Dws_j + [u] Dphi_j)
    //   dkappadot/dth_j = T ([y2] G Dg_j + (Gd2(g, gdot, g') + Gd(g, gdot')) Dg_j
    //                        + Gd(g, gdot) Dg'_j + E(g, g') Dgdot_j + G Dgdot'_j)
    //     Gd2(g, v, w) = d(Gd(g, v) w)/dg,  E(g, w) v = Gd(g, v) w
    // Law: df = K de + C dedot. Forces: dF = R df_1 - [F] dphi, dM = R df_2 - [M] dphi.
    // Node b rows (sign +1) and node f rows (sign -1), columns of node j:
    //   force:  sign dF;  moment: sign (dM + [p_s - x_k] dF - [F] (dp_s - delta_jk dx_k))
    // Each (row node, column node) pair collects the x, th, xdot, w blocks of both sections and
    // goes through the column node's chain rule once.
    void jacobian(const StepContext& c, const StateView& st, Jacobian& J) const override {
        if (!viscous_ || c.phase == Phase::assembly) return jacobian_elastic(c, st, J);
        NodeK nk[NN];
        const bool visc = true;
        const Mat3 Ra = node_kin(nk, true, true);
        // D[k][j][v]: rows of node k, columns of node j, variable v = x, th, xdot, w.
        Mat63 D[NN][NN][4];
        for (int k = 0; k < NN; ++k)
            for (int j = 0; j < NN; ++j)
                for (int v = 0; v < 4; ++v) D[k][j][v].setZero();
        for (int s = 0; s < NS; ++s) {
            const Section& S = sec_[s];
            SecK k;
            section_kin(s, Ra, nk, visc, k);
            law_eval(s, k, c.time, st);
            piezo_jacobian(s, k, c, J);
            const Vec3 F = k.R * k.fl.head<3>(), M = k.R * k.fl.tail<3>();
            const Mat3 RT = k.R.transpose();
            const Mat3 sF = skew(F), sM = skew(M), sPp = skew(k.pp);
            const Mat3 A = rotvec::Gd(k.g, k.gp) + skew(Vec3(k.G * k.gp)) * k.G;
            const Mat3 RaG = Ra * k.G;
            // Viscous-only quantities.
            Mat3 Gd_gd, Gd2, E_gp, sWs, sU, sY2G, sRaY1;
            if (visc) {
                Gd_gd = rotvec::Gd(k.g, k.gd);
                Gd2 = rotvec::Gd2(k.g, k.gd, k.gp) + rotvec::Gd(k.g, k.gdp);
                E_gp = rotvec::E(k.g, k.gp);
                sWs = skew(k.ws);
                sU = skew(k.u);
                sY2G = skew(k.y2) * k.G;
                sRaY1 = skew(Vec3(Ra * k.y1));
            }
            Mat3 HsumN = Mat3::Zero(), HsumNp = Mat3::Zero();
            Mat3 QsumN = Mat3::Zero(), QsumNp = Mat3::Zero();
            for (int i = 0; i < NN; ++i) {
                if (i == ref) continue;
                HsumN += S.N[i] * nk[i].H;
                HsumNp += S.Np[i] * nk[i].H;
                if (visc) {
                    const Mat3 Qr = -nk[i].QH + nk[i].Ginv * Ra.transpose() * skew(nk[i].v);
                    QsumN += S.N[i] * Qr;
                    QsumNp += S.Np[i] * Qr;
                }
            }
            for (int j = 0; j < NN; ++j) {
                const Mat3 Dg = j == ref ? Mat3(-HsumN) : Mat3(S.N[j] * nk[j].H);
                const Mat3 Dgp = j == ref ? Mat3(-HsumNp) : Mat3(S.Np[j] * nk[j].H);
                Mat3 Dphi = RaG * Dg;
                if (j == ref) Dphi += Mat3::Identity();
                const Mat3 sA = skew(nk[j].a);
                Mat63 Ex, Eth, Edx = Mat63::Zero(), Edth = Mat63::Zero();
                Ex.topRows<3>() = S.Np[j] * RT;
                Ex.bottomRows<3>().setZero();
                Eth.topRows<3>() = RT * (-S.Np[j] * sA + sPp * Dphi);
                Eth.bottomRows<3>() = k.T * (A * Dg + k.G * Dgp);
                if (visc) {
                    const Mat3 Dgd = j == ref ? QsumN : Mat3(S.N[j] * nk[j].QH);
                    const Mat3 Dgdp = j == ref ? QsumNp : Mat3(S.Np[j] * nk[j].QH);
                    Mat3 Dws = Ra * (Gd_gd * Dg + k.G * Dgd);
                    if (j == ref) Dws -= sRaY1;
                    Edx.topRows<3>() = -S.Np[j] * RT * sWs;
                    Edth.topRows<3>() =
                        RT * (S.Np[j] * (sWs - skew(n_[j]->w)) * sA + sPp * Dws + sU * Dphi);
                    Edth.bottomRows<3>() =
                        k.T * (sY2G * Dg + Gd2 * Dg + Gd_gd * Dgp + E_gp * Dgd + k.G * Dgdp);
                }
                // Local force derivatives, then global.
                const Mat63 Dfx = k.K * Ex + k.C * Edx, Dfth = k.K * Eth + k.C * Edth;
                Mat3 DF[4], DM[4];
                DF[0] = k.R * Dfx.topRows<3>();
                DM[0] = k.R * Dfx.bottomRows<3>();
                DF[1] = k.R * Dfth.topRows<3>() - sF * Dphi;
                DM[1] = k.R * Dfth.bottomRows<3>() - sM * Dphi;
                if (visc) {
                    const Mat63 Dfxd = k.C * Ex, Dfw = k.C * Eth;
                    DF[2] = k.R * Dfxd.topRows<3>();
                    DM[2] = k.R * Dfxd.bottomRows<3>();
                    DF[3] = k.R * Dfw.topRows<3>();
                    DM[3] = k.R * Dfw.bottomRows<3>();
                } else {
                    for (int v = 2; v < 4; ++v) DF[v].setZero(), DM[v].setZero();
                }
                // dp_s/dx_j, dp_s/dth_j
                const Mat3 Dp[2] = {S.N[j] * Mat3::Identity(), -S.N[j] * sA};
                for (int side = 0; side < 2; ++side) {
                    const int kn = s + side;
                    const double sign = side == 0 ? 1.0 : -1.0;
                    const Mat3 sB = skew(Vec3(k.p - n_[kn]->x));
                    for (int v = 0; v < 4; ++v) {
                        Mat3 Dmom = DM[v] + sB * DF[v];
                        if (v < 2) {
                            Mat3 dpb = Dp[v];
                            if (v == 0 && j == kn) dpb -= Mat3::Identity();
                            Dmom -= sF * dpb;
                        }
                        D[kn][j][v].template topRows<3>() += sign * DF[v];
                        D[kn][j][v].template bottomRows<3>() += sign * Dmom;
                    }
                }
            }
        }
        for (int kn = 0; kn < NN; ++kn)
            for (int j = 0; j < NN; ++j)
                add_block(J, kn, j,
                          n_[j]->template chain<6>(D[kn][j][0], D[kn][j][1], D[kn][j][2],
                                                   D[kn][j][3], c));
    }

    // Jacobian without viscous terms (the same derivation, reorganised in 3 x 3 blocks). Per
    // section, with K = [K11 K12; K21 K22] the law's stiffness, P = [p'], RaG = Ra G and
    //   GX1 = R K11 R^T,  GX2 = R K21 R^T          (force, moment rows; x columns)
    //   GG1 = R K12 T G,  GG2 = R K22 T G,  GA1 = R K12 T A,  GA2 = R K22 T A
    //   GPS1 = GX1 P - [F],  GPS2 = GX2 P - [M],  B1 = GPS1 RaG + GA1,  B2 = GPS2 RaG + GA2,
    // the derivatives of F (index 1) and M (index 2) with respect to node j are
    //   x_j:  N_j' GX
    //   th_j: -N_j' GX [a_j] + (N_j B + N_j' GG) H_j                        (j != r)
    //         -N_j' GX [a_j] + GPS - B sum N_i H_i - GG sum N_i' H_i        (j = r)
    // and the moment rows of node k add [p_s - x_k] dF - [F] (dp_s - delta_jk dx_k), i.e. the
    // moment-row matrices become X2 + [p_s - x_k] X1 (X = GX, GG, B, GPS) plus
    //   x_j: -(N_j - delta_jk) [F],   th_j: N_j [F] [a_j].
    // Node k = s takes the section's terms with sign +1, node k = s + 1 with sign -1.
    [[gnu::flatten]] void jacobian_elastic(const StepContext& c, const StateView& st,
                                           Jacobian& J) const {
        Kin& K = kinematics();
        const Mat3& Ra = K.Ra;
        const Mat3 RaT = Ra.transpose();
        Mat3 H[NN], sA[NN];
        for (int i = 0; i < NN; ++i) {
            sA[i] = skew(K.nk[i].a);
            H[i] = i == ref ? Mat3(Mat3::Zero()) : mul(rotvec::Gamma_inverse(K.nk[i].g), RaT);
        }
        // D[k][j]: rows of node k (force; moment), columns of node j (x, th).
        Mat63 D[NN][NN][2];
        for (int k = 0; k < NN; ++k)
            for (int j = 0; j < NN; ++j) D[k][j][0].setZero(), D[k][j][1].setZero();
        for (int s = 0; s < NS; ++s) {
            const Section& S = sec_[s];
            SecK& k = K.k[s];
            law_eval(s, k, c.time, st);
            piezo_jacobian(s, k, c, J);
            const Vec3 F = k.R * k.fl.head<3>(), M = k.R * k.fl.tail<3>();
            const Mat3 sF = skew(F);
            const Mat3 RT = k.R.transpose();
            const Mat3 A = rotvec::Gd(k.g, k.gp) + mul(skew(Vec3(k.G * k.gp)), k.G);
            const Mat3 TG = mul(k.T, k.G), TA = mul(k.T, A);
            const Mat3 RK12 = mul(k.R, k.K.template topRightCorner<3, 3>());
            const Mat3 RK22 = mul(k.R, k.K.template bottomRightCorner<3, 3>());
            const Mat3 GX1 = mul(mul(k.R, k.K.template topLeftCorner<3, 3>()), RT);
            const Mat3 GX2 = mul(mul(k.R, k.K.template bottomLeftCorner<3, 3>()), RT);
            const Mat3 GG1 = mul(RK12, TG), GG2 = mul(RK22, TG);
            const Mat3 P = skew(k.pp);
            const Mat3 RaG = mul(Ra, k.G);
            const Mat3 GPS1 = mul(GX1, P) - sF, GPS2 = mul(GX2, P) - skew(M);
            const Mat3 B1 = mul(GPS1, RaG) + mul(RK12, TA), B2 = mul(GPS2, RaG) + mul(RK22, TA);
            Mat3 HsN = Mat3::Zero(), HsNp = Mat3::Zero();
            for (int i = 0; i < NN; ++i) {
                if (i == ref) continue;
                HsN += S.N[i] * H[i];
                HsNp += S.Np[i] * H[i];
            }
            // Force rows Fth and the moment rows' own part Mth of the th columns (the same for
            // both nodes of the section); node k adds [p_s - x_k] Fth.
            Mat3 Fth[NN], Mth[NN];
            for (int j = 0; j < NN; ++j) {
                Fth[j] = -S.Np[j] * mul(GX1, sA[j]);
                Mth[j] = mul(S.N[j] * sF - S.Np[j] * GX2, sA[j]);
                if (j == ref) {
                    Fth[j] += GPS1 - mul(B1, HsN) - mul(GG1, HsNp);
                    Mth[j] += GPS2 - mul(B2, HsN) - mul(GG2, HsNp);
                } else {
                    Fth[j] += mul(S.N[j] * B1 + S.Np[j] * GG1, H[j]);
                    Mth[j] += mul(S.N[j] * B2 + S.Np[j] * GG2, H[j]);
                }
            }
            for (int side = 0; side < 2; ++side) {
                const int kn = s + side;
                const double sign = side == 0 ? 1.0 : -1.0;
                const Mat3 sB = skew(Vec3(k.p - n_[kn]->x));
                const Mat3 X2 = GX2 + mul(sB, GX1);
                for (int j = 0; j < NN; ++j) {
                    const double dx = S.N[j] - (j == kn ? 1.0 : 0.0);
                    Mat63& Ox = D[kn][j][0];
                    Mat63& Oth = D[kn][j][1];
                    Ox.template topRows<3>() += (sign * S.Np[j]) * GX1;
                    Ox.template bottomRows<3>() += sign * (S.Np[j] * X2 - dx * sF);
                    Oth.template topRows<3>() += sign * Fth[j];
                    Oth.template bottomRows<3>() += sign * (Mth[j] + mul(sB, Fth[j]));
                }
            }
        }
        for (int kn = 0; kn < NN; ++kn)
            for (int j = 0; j < NN; ++j)
                add_block(J, kn, j, n_[j]->template chain_pos<6>(D[kn][j][0], D[kn][j][1], c));
    }

    // Adds the block of rows of node kn, columns of node j. In the CSC pattern the 6 rows of a
    // block column are consecutive slots (sorted rows, none between them): the slots of each
    // column's first row are looked up once per matrix, then each column is a plain 6-add
    // (Jacobian::add would decode every entry). A column found otherwise goes through J.add.
    void add_block(Jacobian& J, int kn, int j, const Mat6& m) const {
        CscMatrix& A = J.matrix();
        if (slots_of_ != &A) find_slots(A);
        if (col_slot_[kn][j][0] < 0) return J.add(blocks_[kn][j], m);
        double* v = A.values();
        for (int col = 0; col < 6; ++col) {
            double* p = v + col_slot_[kn][j][col];
            for (int i = 0; i < 6; ++i) p[i] += m(i, col);
        }
    }
    void find_slots(const CscMatrix& A) const {
        for (int kn = 0; kn < NN; ++kn)
            for (int j = 0; j < NN; ++j) {
                const int r0 = n_[kn]->first_dof(), c0 = n_[j]->first_dof();
                bool ok = true;
                for (int col = 0; col < 6; ++col) {
                    const int s0 = A.slot(r0, c0 + col);
                    col_slot_[kn][j][col] = s0;
                    for (int i = 0; i < 6; ++i)
                        ok = ok && s0 >= 0 && A.slot(r0 + i, c0 + col) == s0 + i;
                }
                if (!ok) col_slot_[kn][j][0] = -1;
            }
        slots_of_ = &A;
    }

    void after_step(const StepContext& c, const StateView& st) override {
        if (!viscous_) {
            Kin& K = kinematics();
            for (int s = 0; s < NS; ++s) {
                SecK& k = K.k[s];
                law_eval(s, k, c.time, st);
                out_[s] = k.fl;
                out_e_[s] = k.e;
                out_ed_[s].setZero();
                out_x_[s] = k.p;
                out_R_[s] = k.R;
                sec_[s].law->after_step(k.e, k.ed, c.time);
            }
            return;
        }
        NodeK nk[NN];
        const Mat3 Ra = node_kin(nk, true, true);
        for (int s = 0; s < NS; ++s) {
            SecK k;
            section_kin(s, Ra, nk, true, k);
            law_eval(s, k, c.time, st);
            out_[s] = k.fl;
            out_e_[s] = k.e;
            out_ed_[s] = k.ed;
            out_x_[s] = k.p;
            out_R_[s] = k.R;
            sec_[s].law->after_step(k.e, k.ed, c.time);
        }
    }

    const char* output_file() const override { return "act"; }
    // MBDyn's Beam::Output: f, m of each point, then per selected custom output the linear
    // strains (nu), the curvatures (k), their rates (viscoelastic beams), each of every point.
    // (MBDyn's text writer prints the strains again in place of the rates; here the rates.)
    int output_values(double* v) const override {
        using namespace beam_output_bits;
        int n = 0;
        for (int s = 0; s < NS; ++s)
            for (int i = 0; i < 6; ++i) v[n++] = out_[s][i];
        auto put = [&](const Vec6* a, int off) {
            for (int s = 0; s < NS; ++s)
                for (int i = 0; i < 3; ++i) v[n++] = a[s][off + i];
        };
        if (out_flags_ & ep_nu) put(out_e_, 0);
        if (out_flags_ & ep_k) put(out_e_, 3);
        if (out_flags_ & ep_nup) put(out_ed_, 0);
        if (out_flags_ & ep_kp) put(out_ed_, 3);
        return n;
    }

    // NetCDF/HDF5 only (MBDyn's X_I, R_I, ...): p and R of each point at the converged step.
    int output_points(Vec3* x, Mat3* R) const override {
        for (int s = 0; s < NS; ++s) x[s] = out_x_[s], R[s] = out_R_[s];
        return NS;
    }

    // NetCDF/HDF5 (docs/deck-language.md 8): point by point as MBDyn's Beam::OutputPrepare
    // defines its variables, X_I, R_I (or Phi_I, E_I), F_I, M_I, nu_I, k_I, nuP_I, kP_I, then the
    // same for _II; each has column -1 unless `custom output` selects it:
    //   X, R   the evaluation point (output_points(), not in the text file);
    //   F, M   the .act columns 6 s, 6 s + 3 (selected unless `custom output` has `none`);
    //   nu, k, nuP, kP  after the forces and moments of the NS points, each selected strain has
    //          its 3 values at every point, in this order (output_values()).
    bool output_schema(OutputSchema& out) const override {
        using namespace beam_output_bits;
        struct Strain {
            long bit;
            const char* name;
            const char* units;
            const char* what;
        };
        static const Strain strains[4] = {
            {ep_nu, "nu", "-", "linear strain (axial, shear 2, shear 3)"},
            {ep_k, "k", "1/m", "angular strain (torsion, bending 2, bending 3)"},
            {ep_nup, "nuP", "1/s", "linear strain rate (axial, shear 2, shear 3)"},
            {ep_kp, "kP", "1/(m s)", "angular strain rate (torsion, bending 2, bending 3)"}};
        static const char* point_name[2] = {"I", "II"};
        out.group = NN == 3 ? "beam3" : "beam2";
        out.nc_prefix = "elem.beam";
        out.nc_type = viscous_ ? "viscoelastic" : "elastic";  // MBDyn's beam type
        out.order = NN == 3 ? 90 : 100;
        out.orientation = orientation_description_;
        const long f = out_flags_;
        auto on = [&](long bit, int col) { return f & bit ? col : -1; };
        for (int s = 0; s < NS; ++s) {
            const std::string sfx = std::string("_") + point_name[s];
            const std::string ep = std::string("evaluation point ") + point_name[s] + " ";
            OutputQuantity x{"X" + sfx,  3, "m", "global", ep + "global position vector (X, Y, Z)",
                             on(ep_x, 0)};
            x.point = s;
            OutputQuantity r{"R" + sfx,
                             9,
                             "-",
                             "global",
                             ep +
                                 "global orientation matrix of the section, row-major (R11, R12, "
                                 "R13, R21, ...): x_global = X" +
                                 sfx + " + R" + sfx + " x_section",
                             on(ep_r, 0)};
            r.point = s;
            r.orientation = true;
            r.where = ep;
            out.quantities.push_back(std::move(x));
            out.quantities.push_back(std::move(r));
            out.quantities.push_back({"F" + sfx, 3, "N", "local",
                                      std::string("internal force at evaluation point ") +
                                          point_name[s] +
                                          ", section frame (axial, shear 2, shear 3)",
                                      on(ep_f, 6 * s)});
            out.quantities.push_back({"M" + sfx, 3, "Nm", "local",
                                      std::string("internal moment at evaluation point ") +
                                          point_name[s] +
                                          ", section frame (torsion, bending 2, bending 3)",
                                      on(ep_m, 6 * s + 3)});
            int col = 6 * NS;
            for (const Strain& k : strains) {
                out.quantities.push_back({k.name + sfx, 3, k.units, "local",
                                          std::string(k.what) + " at evaluation point " +
                                              point_name[s] + ", section frame",
                                          on(k.bit, col + 3 * s)});
                if (f & k.bit) col += 3 * NS;
            }
        }
        return true;
    }

    // MBDyn's .log line: "beam3: L n1 f1 n2 f2 n3 f3" (beam2: two nodes), f_i the offsets in
    // the node frames, printed as a C++ stream does by default (%g).
    std::string log_line() const override {
        LogLine l;
        l.word(NN == 3 ? "beam3:" : "beam2:").label(label());
        for (int i = 0; i < NN; ++i) l.label(n_[i]->label()).vec(f_[i]);
        return l.s;
    }

    void set_output_flags(long f) { out_flags_ = f; }
    void set_orientation_description(std::string d) { orientation_description_ = std::move(d); }
    void set_in_assembly(bool on) { in_assembly_ = on; }
    bool in_assembly() const override { return in_assembly_; }

    void set_viscous() { viscous_ = viscous(); }
    void set_clock(const SimClock* c) { clock_ = c; }
    void add_electrode(const genels::ScalarDof& dof, const Vec6 (&P)[NS]) {
        Electrode el{dof, {}, {}};
        for (int s = 0; s < NS; ++s) el.P[s] = P[s];
        piezo_.push_back(el);
    }

    // Private data (docs/deck-language.md 5.3), per evaluation point, 27 values: strains ex ey ez
    // kx ky kz and forces Fx Fy Fz Mx My Mz in the section frame, the point's position Xx Xy Xz,
    // the rotation vector of the section frame Phix Phiy Phiz and its angular velocity
    // Omegax Omegay Omegaz (global), the strain rates ePx ePy ePz kPx kPy kPz (section frame);
    // beam3 prefixes the names with "pI." and "pII.". Evaluated at the current iterate, the law
    // at the clock's time.
    static constexpr int per_point = 27;
    int private_data_count() const override { return NS * per_point; }
    const char* private_data_name(int i) const override { return names()[i].c_str(); }
    double private_data(int i, const StateView& st) const override {
        const int s = i / per_point, j = i % per_point;
        NodeK nk[NN];
        const Mat3 Ra = node_kin(nk, true, true);
        SecK k;
        section_kin(s, Ra, nk, true, k);
        if (j < 6) return k.e[j];
        if (j < 12) {
            law_eval(s, k, clock_ ? clock_->time : 0.0, st);
            return k.fl[j - 6];
        }
        if (j < 15) return k.p[j - 12];
        if (j < 18) return matrix_to_rotation_vector(k.R)[j - 15];
        if (j < 21) return k.ws[j - 18];
        return k.ed[j - 21];
    }

  private:
    static const std::array<std::string, NS * per_point>& names() {
        static const std::array<std::string, NS* per_point> n = [] {
            static const char* base[per_point] = {
                "ex",     "ey",     "ez",     "kx",  "ky",  "kz",  "Fx",   "Fy",   "Fz",
                "Mx",     "My",     "Mz",     "Xx",  "Xy",  "Xz",  "Phix", "Phiy", "Phiz",
                "Omegax", "Omegay", "Omegaz", "ePx", "ePy", "ePz", "kPx",  "kPy",  "kPz"};
            std::array<std::string, NS * per_point> out;
            for (int s = 0; s < NS; ++s)
                for (int j = 0; j < per_point; ++j)
                    out[s * per_point + j] =
                        (NS == 1 ? std::string() : std::string(s == 0 ? "pI." : "pII.")) + base[j];
            return out;
        }();
        return n;
    }

    // Node quantities and Ra (with H_i and G(g_i)^-1 if `tangent`, with the parameter rates and
    // their derivatives if `rates`; rates need tangent).
    Mat3 node_kin(NodeK* nk, bool tangent, bool rates) const {
        const Mat3 Ra = n_[ref]->R * R0T_[ref];
        const Mat3 RaT = Ra.transpose();
        for (int i = 0; i < NN; ++i) {
            const StructNode& n = *n_[i];
            nk[i].a = n.R * f_[i];
            nk[i].p = n.x + nk[i].a;
            if (i == ref) continue;
            nk[i].g = matrix_to_rotation_vector(RaT * n.R * R0T_[i]);
            if (!tangent) continue;
            nk[i].Ginv = rotvec::Gamma_inverse(nk[i].g);
            nk[i].H = nk[i].Ginv * RaT;
            if (rates) {
                nk[i].v = n.w - n_[ref]->w;
                const Vec3 z = RaT * nk[i].v;
                nk[i].gd = nk[i].Ginv * z;
                nk[i].QH = rotvec::Ginv_d(nk[i].g, z) * nk[i].H;
            }
        }
        return Ra;
    }

    void section_kin(int s, const Mat3& Ra, const NodeK* nk, bool visc, SecK& k) const {
        const Section& S = sec_[s];
        k.p.setZero(), k.pp.setZero(), k.g.setZero(), k.gp.setZero();
        for (int i = 0; i < NN; ++i) {
            k.p += S.N[i] * nk[i].p;
            k.pp += S.Np[i] * nk[i].p;
            if (i == ref) continue;
            k.g += S.N[i] * nk[i].g;
            k.gp += S.Np[i] * nk[i].g;
        }
        const Mat3 Rc = rotation_vector_to_matrix(k.g);
        k.G = rotvec::Gamma(k.g);
        k.T = S.Ro.transpose() * Rc.transpose();
        k.R = Ra * k.T.transpose();
        k.e.head<3>() = k.R.transpose() * k.pp - S.nu0;
        k.e.tail<3>() = k.T * (k.G * k.gp) - S.k0;
        if (!visc) return;
        k.gd.setZero(), k.gdp.setZero();
        Vec3 pdp = Vec3::Zero();
        for (int i = 0; i < NN; ++i) {
            const StructNode& n = *n_[i];
            pdp += S.Np[i] * (n.xdot + n.w.cross(nk[i].a));
            if (i == ref) continue;
            k.gd += S.N[i] * nk[i].gd;
            k.gdp += S.Np[i] * nk[i].gd;
        }
        k.y1 = k.G * k.gd;
        k.ws = n_[ref]->w + Ra * k.y1;
        k.u = pdp - k.ws.cross(k.pp);
        k.y2 = rotvec::Gd(k.g, k.gd) * k.gp + k.G * k.gdp;
        k.ed.head<3>() = k.R.transpose() * k.u;
        k.ed.tail<3>() = k.T * k.y2;
    }

    // Positions, orientation parameters and strains of the current node configuration (no
    // rates), kept for the next evaluation at the same configuration: the engine evaluates the
    // residual and then the Jacobian of one iterate, and after_step() at the converged one.
    // The key is the nodes' x and R themselves (bitwise); the law is evaluated anew each time
    // (it may depend on time and drives).
    struct Kin {
        Vec3 x[NN];
        Mat3 R[NN];
        Mat3 Ra;
        NodeK nk[NN];
        SecK k[NS];
        bool valid = false;
    };
    [[gnu::flatten]] Kin& kinematics() const {
        Kin& K = kin_;
        bool same = K.valid;
        for (int i = 0; same && i < NN; ++i) same = n_[i]->x == K.x[i] && n_[i]->R == K.R[i];
        if (same) return K;
        K.Ra = node_kin(K.nk, false, false);
        for (int s = 0; s < NS; ++s) section_kin(s, K.Ra, K.nk, false, K.k[s]);
        for (int i = 0; i < NN; ++i) K.x[i] = n_[i]->x, K.R[i] = n_[i]->R;
        K.valid = true;
        return K;
    }

    void law_eval(int s, SecK& k, double t, const StateView& st) const {
        sec_[s].law->eval(k.e, k.ed, t, k.fl, k.K, k.C);
        for (const Electrode& el : piezo_) k.fl += el.dof.value(st) * el.P[s];
    }

    // Columns of the electrode voltages (file comment: [f; m] += P V), section s. With
    // dV_e/dy'_e = dCoef (1 in the assembly phase) and P_e the matrix's column of electrode e:
    //   node b rows (sign +1), node f rows (sign -1):
    //     force:  sign R Pnu_e dV_e,   moment: sign (R Pk_e + [p_s - x_k] R Pnu_e) dV_e
    // (MBDyn's PiezoActuatorBeam::AssStiffnessMat, in its residual's sign).
    void piezo_jacobian(int s, const SecK& k, const StepContext& c, Jacobian& J) const {
        for (const Electrode& el : piezo_) {
            const double dv = el.dof.dvalue(c);
            const Vec3 dF = dv * (k.R * el.P[s].template head<3>());
            const Vec3 dM = dv * (k.R * el.P[s].template tail<3>());
            for (int side = 0; side < 2; ++side) {
                const int kn = s + side;
                const double sign = side == 0 ? 1.0 : -1.0;
                Vec6 col;
                col << sign * dF, sign * (dM + (k.p - n_[kn]->x).cross(dF));
                J.add(el.blocks[kn], col);
            }
        }
    }

    std::array<StructNode*, NN> n_;
    std::array<Vec3, NN> f_;
    std::array<Mat3, NN> R0T_;  // R_i0^T: Rn_i = R_i R_i0^T
    Section sec_[NS];
    // Piezoelectric electrodes: the abstract node, the matrix column P_e of each point, the
    // blocks (node k rows, the electrode's column).
    struct Electrode {
        genels::ScalarDof dof;
        Vec6 P[NS];
        BlockId blocks[NN];
    };
    std::vector<Electrode> piezo_;
    bool viscous_ = false;
    const SimClock* clock_ = nullptr;
    BlockId blocks_[NN][NN];
    Vec6 out_[NS], out_e_[NS], out_ed_[NS];
    Vec3 out_x_[NS];
    Mat3 out_R_[NS];
    long out_flags_ = 0;
    std::string orientation_description_;  // "": the control data's `default orientation`
    bool in_assembly_ = false;
    mutable Kin kin_;
    mutable const CscMatrix* slots_of_ = nullptr;  // the matrix col_slot_ belongs to
    mutable int col_slot_[NN][NN][6];
};

template <int NN>
std::unique_ptr<Element> make_beam(const EntityDesc& d, BuildContext& ctx) {
    const auto& spec = d.spec_as<BeamSpec>();
    std::array<StructNode*, NN> nodes;
    std::array<Vec3, NN> f;
    for (int i = 0; i < NN; ++i) {
        nodes[i] = &ctx.struct_node(spec.nodes[i].node, d);
        if (!nodes[i]->has_rotation())  // the reader refuses them already
            throw InputError(spec.nodes[i].node_loc,
                             "a " + d.category + " needs structural nodes with rotations (node " +
                                 std::to_string(nodes[i]->label()) + " has none)");
        f[i] = spec.nodes[i].offset;
    }
    auto beam = std::make_unique<Beam<NN>>(d, nodes, f);
    LawEnv env{ctx.drive_env()};
    const double xi3 = 1.0 / std::sqrt(3.0);
    for (int s = 0; s < NN - 1; ++s) {
        auto& S = beam->section(s);
        S.Rsec0 = spec.section[s].R;
        S.law = make_law<6>(*spec.section[s].law, env);
        const double xi = NN == 2 ? 0.0 : (s == 0 ? -xi3 : xi3);
        if (!beam->init_geometry(s, xi))
            ctx.error(d,
                      "the points of " + d.category + " " + std::to_string(d.label) +
                          " coincide at evaluation point " + (s == 0 ? "I" : "II"),
                      "check the node positions and offsets");
    }
    // Piezoelectric electrodes: column e of each point's 6 x N matrix (row-major).
    const long ne = static_cast<long>(spec.electrodes.size());
    for (long e = 0; e < ne; ++e) {
        const EntityRef& ref = spec.electrodes[static_cast<std::size_t>(e)];
        const Element* node = genels::find_scalar_node(ctx.drive_env(), ref);
        if (!node || node->own_dofs() != 1 || node->own_dof_order(0) != DofOrder::differential)
            ctx.error(d, "electrode " + std::to_string(e + 1) + " of " + d.category + " " +
                             std::to_string(d.label) + ": abstract node " +
                             std::to_string(ref.label) + " has no differential value at run time");
        genels::ScalarDof dof;
        dof.owner = node;
        dof.what = "abstract node " + std::to_string(ref.label);
        Vec6 P[NN - 1];
        for (int s = 0; s < NN - 1; ++s) {
            const VecN& m = spec.section[s].piezo;
            for (int i = 0; i < 6; ++i) P[s][i] = m[static_cast<std::size_t>(i * ne + e)];
        }
        beam->add_electrode(dof, P);
    }
    beam->set_viscous();
    beam->set_clock(ctx.drive_env().clock);
    beam->set_output_flags(spec.custom_output_flags);
    beam->set_orientation_description(spec.orientation_description);
    beam->set_in_assembly(el::used_in_assembly(ctx, "beams"));
    return beam;
}

void read_beam3(Reader& r, EntityDesc& e) {
    auto spec = std::make_shared<BeamSpec>();
    SourceLoc at = r.loc();
    std::vector<cards::BeamNode> n;
    for (int k = 1; k <= 3; ++k) n.push_back(cards::read_beam_node(r, *spec, k, "beam3"));
    cards::check_beam_nodes_distinct(r, e.category, n, at);

    bool from_I = false, from_II = false;
    Mat3 R_I = cards::read_beam_section(r, from_I, "section orientation I");
    auto law_I = r.law(6, "constitutive law of section I");
    Mat3 R_II;
    if (r.accept("same")) {
        from_II = from_I;
        R_II = R_I;
    } else {
        R_II = cards::read_beam_section(r, from_II, "section orientation II");
    }
    auto law_II = r.accept("same") ? law_I : r.law(6, "constitutive law of section II");

    if (from_I || from_II) {
        // Relative to node 2's frame: g1, 0, g3 interpolated with the 3-node shape functions.
        Mat3 R2 = cards::node_orientation(*n[1].node) * n[1].R;
        Vec3 g1 = matrix_to_cgr(R2.transpose() * cards::node_orientation(*n[0].node) * n[0].R);
        Vec3 g3 = matrix_to_cgr(R2.transpose() * cards::node_orientation(*n[2].node) * n[2].R);
        auto interp = [&](double xi) {
            Vec3 g = 0.5 * xi * (xi - 1.0) * g1 + 0.5 * xi * (xi + 1.0) * g3;
            return Mat3(R2 * cgr_to_matrix(g));
        };
        const double xi = 1.0 / std::sqrt(3.0);
        if (from_I) R_I = interp(-xi);
        if (from_II) R_II = interp(xi);
    }
    spec->section[0] = {R_I, from_I, law_I, {}};
    spec->section[1] = {R_II, from_II, law_II, {}};
    cards::read_beam_piezo(r, *spec, 2);
    cards::read_beam_tail(r, *spec, (law_kind_bits(*law_I) | law_kind_bits(*law_II)) & law_viscous);
    e.spec = std::move(spec);
}

void read_beam2(Reader& r, EntityDesc& e) {
    auto spec = std::make_shared<BeamSpec>();
    SourceLoc at = r.loc();
    std::vector<cards::BeamNode> n;
    for (int k = 1; k <= 2; ++k) n.push_back(cards::read_beam_node(r, *spec, k, "beam2"));
    cards::check_beam_nodes_distinct(r, e.category, n, at);
    bool from = false;
    Mat3 R = cards::read_beam_section(r, from, "section orientation");
    if (from) {
        // Midpoint: R = R2 exp(g/2), g the parameters of node 1 relative to node 2.
        Mat3 R2 = cards::node_orientation(*n[1].node) * n[1].R;
        Vec3 g = matrix_to_cgr(R2.transpose() * cards::node_orientation(*n[0].node) * n[0].R);
        R = R2 * cgr_to_matrix(0.5 * g);
    }
    auto law = r.law(6, "constitutive law");
    spec->section[0] = {R, from, law, {}};
    cards::read_beam_piezo(r, *spec, 1);
    cards::read_beam_tail(r, *spec, law_kind_bits(*law) & law_viscous);
    e.spec = std::move(spec);
}

}  // namespace

MBS_REGISTER_ELEMENT_KIND("beam3", "", {.read = read_beam3, .make = make_beam<3>});
MBS_REGISTER_ELEMENT_KIND("beam", "", {.read = read_beam3, .make = make_beam<3>});
MBS_REGISTER_ELEMENT_KIND("beam2", "", {.read = read_beam2, .make = make_beam<2>});

}  // namespace mbs
