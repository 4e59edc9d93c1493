// Coordinate partitioning (seed eqs. 20-25): q = (q_u independent, q_v dependent, q_c driven),
// chosen by LU with full pivoting of the constraint Jacobian; redundant constraint rows detected by
// its rank and dropped; constraint solution by Newton-Raphson on q_v; the reduced equations
//   M_r qdd_u + F_r = 0,  M_r = T^T M T,  F_r = T^T (M s + c - Q),
// with qdd = T qdd_u + s, T = [1; B_vu; 0], B_vu = -J_v^-1 J_u, s_v = -J_v^-1 (J_c qdd_c + gamma).
#pragma once

#include <Eigen/LU>
#include <string>
#include <vector>

#include "solvers/reduced/dynamics.hpp"

namespace mbs::reduced {

struct Partition {
    std::vector<int> u, v, c;  // independent, dependent, driven coordinates
    std::vector<int> rows;     // independent constraint rows (rank r = rows.size() = v.size())
    std::vector<int> redundant_rows;
    std::vector<long> redundant_joints;  // labels of the cuts owning redundant rows (no repeats)
    double pivot_ratio = 0.0;  // |smallest / largest| pivot of J_v at the choice (conditioning)
    bool user = false;         // proposed by the user: kept for the whole analysis
};

// Rank threshold relative to the largest pivot.
constexpr double rank_tolerance = 1e-9;

// Full partition from J at the current configuration (rows and columns).
Partition make_partition(const ReducedModel& m, const MatX& J);
// New dependent coordinates for the kept rows (rows unchanged), e.g. after the mechanism moved.
void repartition_columns(const ReducedModel& m, const MatX& J, Partition& p);

// A user-proposed partition: `independent` (0-based coordinates) must be free (not driven),
// as many as the degrees of freedom, and leave a J_v whose pivot ratio is at least 1e-8;
// throws std::invalid_argument saying what is wrong otherwise.
void propose_partition(const ReducedModel& m, const MatX& J, Partition& p,
                       const std::vector<int>& independent);

// Newton-Raphson on q_v: h_rows(q) = 0 to |h|_inf <= tol. Returns false when it does not converge
// in max_iter iterations. Leaves ws with the kinematics of the final q (velocities zero).
bool solve_positions(const ReducedModel& m, Workspace& ws, const Partition& p, VecX& q, double tol,
                     int max_iter = 30);

// The reduced accelerations and everything around them at (q, qd, t): qd_v is set from qd_u and
// qd_c (J_rows qd = 0), qdd_c from the drives, then qdd = T qdd_u + s from M_r qdd_u = -F_r.
// Tau_u: generalized forces applied on the independent coordinates (may be empty).
struct ReducedState {
    MatX T;    // nq x nu
    MatX Bvu;  // nv x nu
    MatX Mr;   // nu x nu
    VecX Fr;   // nu
    VecX s;    // nq
    Eigen::PartialPivLU<MatX> Jv_lu;
};
void set_dependent_velocities(const ReducedModel& m, Workspace& ws, const Partition& p,
                              const VecX& q, VecX& qd, double t);
void reduced_accelerations(const ReducedModel& m, Workspace& ws, const Partition& p, const VecX& q,
                           VecX& qd, double t, VecX& qdd, ReducedState& rs);

// Driven variables at time t: qd_c and qdd_c from their drives.
void driven_rates(const ReducedModel& m, const Partition& p, double t, VecX& qd, VecX& qdd);
// Position-level driven variables at time t: q_c = s f(t) (velocity-level ones untouched).
void driven_positions(const ReducedModel& m, const Partition& p, double t, VecX& q);

// qd that best matches the nodes' initial velocities (NodeAttach::v0, w0; least squares),
// driven rates imposed.
VecX fit_velocities(const ReducedModel& m, Workspace& ws, const VecX& q, double t);

}  // namespace mbs::reduced

namespace mbs::reduced {

// Full-coordinate alternative used near singular configurations (where every J_v is nearly
// singular): qdd = M^-1 (J^T lambda - tau0) with the multipliers of minimum norm,
//   (J M^-1 J^T) lambda = J M^-1 tau0 - gamma   (rank-revealing solve, relative threshold 1e-13),
// driven coordinates as extra rows qdd_c = drive'(t). tau0 = c - Q (inverse dynamics at qdd = 0).
void full_accelerations(const ReducedModel& m, Workspace& ws, const Partition& p, const VecX& q,
                        VecX& qd, double t, VecX& qdd);
// Projection onto the constraint manifold: Newton with the minimum-norm correction
// dq_f = -J_f^+ h (free coordinates) to |h|_inf <= tol, then qd_f -= J_f^+ (J qd + ht) and the
// driven rates imposed. Returns false if the positions do not converge.
bool project_state(const ReducedModel& m, Workspace& ws, const Partition& p, VecX& q, VecX& qd,
                   double t, double tol, int max_iter = 30);
// Pivot ratio |smallest/largest| of the full-pivot LU of J_v for the partition's rows and v.
double pivot_ratio_of(const MatX& J, const Partition& p);

}  // namespace mbs::reduced

namespace mbs::reduced {

// Full-coordinate steps across a singular configuration (where the constraint Jacobian loses
// rank, e.g. the collinear N four-bar). Near it the minimum-norm accelerations of a state off the
// constraint manifold by delta (an RK4 stage state: delta ~ dt^2) are off by ~delta/sigma, sigma
// the smallest singular value of J_f, ~ the distance to the singular point: a step whose stages
// land within ~1e-6 rad of it left a velocity error that did not shrink with dt (N four-bar,
// DT 1e-4: 1e-3 in the energy at t = 6.542 s). step() therefore first locates the singular time
// t* in the step's window (the minimum of sigma along the Taylor path q + tau qd + tau^2/2 qdd,
// sampled and refined by golden sections; a singular point is a minimum below 1e-3 of sigma at
// the window's start), then covers [t, t + dt] with one to three RK4 segments whose evaluation
// times (start, middle, end) all stay at least dt/16 from t* (the split points chosen by a search
// over candidate points), each segment's result projected. When t + dt itself is within dt/8 of
// t*, the last segment is the explicit third-order method with nodes 0, 1/4, 1/2 (weights 2/3,
// -4/3, 5/3; a21 = 1/4, a31 = 1/10, a32 = 2/5), which evaluates nothing near its end, and the
// next step restarts from that segment's start (the anchor, at least dt/4 before t*) instead of
// the state at t + dt, so no evaluation ever lands near t*. Without a singular point in the
// window: the plain RK4 step.
class SingularStepper {
  public:
    // Advances (q, qd) from t to tn (projected to tol). Returns false if a projection fails.
    bool step(const ReducedModel& m, Workspace& ws, const Partition& p, VecX& q, VecX& qd, double t,
              double tn, double tol);
    // Forget the anchor (the caller took a step of its own in between).
    void reset() { anchor_ = false; }
    long crossings() const { return crossings_; }
    double settle_ratio = 1e-3;  // no projection where sigma_r / sigma_1 of J_f is below this

  private:
    bool anchor_ = false;
    double t_anchor_ = 0.0, t_star_ = 0.0;
    VecX q_anchor_, qd_anchor_;
    long crossings_ = 0;
    VecX v1_, v2_, v3_, v4_, a1_, a2_, a3_, a4_;
    double sigma_min(const ReducedModel& m, Workspace& ws, const Partition& p, const VecX& q);
    bool settle(const ReducedModel& m, Workspace& ws, const Partition& p, VecX& q, VecX& qd,
                double t, double tol);
    void stage(const ReducedModel& m, Workspace& ws, const Partition& p, double t, const VecX& q,
               const VecX& qd, VecX& v, VecX& a);
    void rk4(const ReducedModel& m, Workspace& ws, const Partition& p, VecX& q, VecX& qd, double t,
             double h);
    void rk3_early(const ReducedModel& m, Workspace& ws, const Partition& p, VecX& q, VecX& qd,
                   double t, double h);
};

}  // namespace mbs::reduced
