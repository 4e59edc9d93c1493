// Recursive kinematics and dynamics of a ReducedModel: free functions over (model, workspace, q,
// qd, qdd), forward passes over links in topological order and backward passes by parent index.
// Nothing here allocates: every buffer lives in the Workspace, sized once by make_workspace().
//
// Conventions (world frame W, SI units): link i has frame (x_i, R_i), angular velocity w_i,
// velocity v_i and acceleration a_i of its origin x_i, angular acceleration alpha_i. Joint i has
// its point p_i and unit axis u_i in the world. Spatial vectors are (angular; linear) at the world
// origin: the motion subspace of joint i is S_i = (u_i; p_i x u_i) (revolute) or (0; u_i)
// (prismatic); a wrench is (moment about the origin; force).
//
// Equations of motion (seed eq. 22, before partitioning):
//     M(q) qdd + c(q, qd) - Q(q, qd, t) = Q_joint + J(q)^T lambda,   h(q) = 0,
// with inverse_dynamics() = M qdd + c - Q (gravity, loads and link forces in Q).
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "solvers/reduced/reduced_model.hpp"

namespace mbs::reduced {

using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;

struct Workspace {
    std::vector<Vec3> x, v, a, w, alpha;  // link frames and their motion
    std::vector<Mat3> R;
    std::vector<Vec3> p, u;  // joint points and axes
    std::vector<Vec6> S;     // motion subspaces
    std::vector<Vec3> f, n;  // subtree force and moment about the world origin (backward pass)
    std::vector<Vec3> fext, next;  // applied forces and moments about the origin, per link
    std::vector<Mat6> Ic;          // composite spatial inertias at the origin
    Vec3 g = Vec3::Zero();         // gravity acceleration at the current time
    VecX zero;                     // nq zeros
    VecX tau;                      // inverse dynamics result
    MatX M;                        // mass matrix
    VecX h, gamma;                 // constraints h(q, t) and Jdot qd + d2h/dt2
    VecX ht;                       // dh/dt at fixed q (driven cuts; 0 elsewhere)
    MatX J;                        // constraint Jacobian (n_constraints x nq)
};

Workspace make_workspace(const ReducedModel& m);

// Link frames, velocities and accelerations (qdd may be ws.zero: the bias accelerations).
void forward_kinematics(const ReducedModel& m, Workspace& ws, const VecX& q, const VecX& qd,
                        const VecX& qdd);

// World pose, velocity of a point fixed on link `link` (-1: the ground) at r (link frame).
struct PointState {
    Vec3 x, v, a;
};
PointState point_state(const Workspace& ws, int link, const Vec3& r);

// Applied loads at time t from the current kinematics: fills ws.fext, ws.next and ws.g.
void compute_loads(const ReducedModel& m, Workspace& ws, double t);

// tau = M qdd + c - Q from the current kinematics (forward_kinematics with this qdd, then
// compute_loads). Result in ws.tau.
void inverse_dynamics(const ReducedModel& m, Workspace& ws);

// Mass matrix by the composite rigid body algorithm (needs link frames). Result in ws.M.
void mass_matrix(const ReducedModel& m, Workspace& ws);

// Loop constraints h(q, t), Jacobian J = dh/dq, gamma = Jdot qd + d2h/dt2 and ht = dh/dt at time
// t (needs forward_kinematics with qdd = 0 for gamma), so that the velocity constraints read
// J qd + ht = 0 and the acceleration constraints J qdd + gamma = 0. Driven cuts are separable,
// h = h0(q) - f(t): J does not depend on t, ht = -f'(t), d2h/dt2 = -f''(t) (a central difference
// of f', as for the driven coordinates). Results in ws.h, ws.J, ws.gamma, ws.ht. Without t: the
// time of the model's clock (0 without one).
void constraints(const ReducedModel& m, Workspace& ws, double t);
void constraints(const ReducedModel& m, Workspace& ws);

// A drive's value f(t), f'(t) and f''(t): the drives give no second derivative, so f'' is the
// fourth-order central difference (8 (f'(t+h) - f'(t-h)) - (f'(t+2h) - f'(t-2h))) / 12h of f',
// h = 2e-4 (1 + |t|): error h^4 f^(5)/30 + ~eps |f'|/h (the model's clock is moved for string
// drives and restored).
void drive_levels(const ReducedModel& m, const Drive& d, double t, double& f, double& fd,
                  double& fdd);

// Convenience: everything for the state (q, qd) at time t; afterwards ws.tau = c - Q (the bias
// forces), ws.M, ws.h, ws.J, ws.gamma.
void evaluate(const ReducedModel& m, Workspace& ws, const VecX& q, const VecX& qd, double t);

}  // namespace mbs::reduced
