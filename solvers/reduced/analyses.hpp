// Analyses on the relative-coordinate model: tree report, reduced direct dynamics (RK4 on the
// independent coordinates), static equilibrium and modal analysis. Each is a free function over an
// immutable ReducedModel; results go to text files with the DAE's layouts where one exists.
#pragma once

#include <complex>
#include <csignal>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/modal_columns.hpp"
#include "core/step_view.hpp"
#include "solvers/reduced/partition.hpp"

namespace mbs::reduced {

// Thrown when an analysis cannot proceed (singular constraints, no convergence): exit status 3.
struct ReducedFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The model, its workspace, the consistent initial state and the partition at it.
struct Setup {
    SimClock clock;
    ReducedModel rm;
    Workspace ws;
    VecX q, qd;
    Partition part;
    double t0 = 0.0;
};
// Builds the tree and the partition at the deck's initial configuration (constraints solved to
// 1e-12, velocities fitted to the nodes' and made consistent). The Setup must not move (the
// drives point to its clock): hence the unique_ptr.
// independent: a user-proposed partition (0-based coordinates; empty: chosen by the LU).
std::unique_ptr<Setup> make_setup(const Model& model, const std::vector<int>& independent = {});

// Where coordinate i comes from: its joint's card, or a free node's card.
SourceLoc coordinate_loc(const Model& model, const ReducedModel& rm, int i);

// Refuses (InputError at the coordinate's card) a free coordinate that moves no mass or inertia
// at the initial state: the reduced mass matrix is singular there and its LDLT would return
// zero accelerations silently (a massless free node, a body of mass 0). `analysis` names the
// analysis in the message.
void check_inertia(const Model& model, Setup& s, const char* analysis);

// `mbsolve --tree`: bodies, joints, coordinates, cuts, then `degrees of freedom: N` and, with
// redundancy, `redundant constraints: K (joints L1, L2, ...)`.
void print_tree(const Model& model, const Setup& s, std::ostream& out);

// A stop asked for from outside (mbsolve/main.cpp's SIGINT/SIGTERM/SIGHUP handler): the time
// loops of reduced and inverse dynamics check `requested` after every step and, when it is
// non-zero, end there as after the last step (every file closed) and write
// `# run stopped: REASON at t = T` at the end of PREFIX.out (as the DAE's text output does).
struct StopRequest {
    const volatile std::sig_atomic_t* requested = nullptr;
    std::function<std::string()> reason;
    bool asked() const { return requested != nullptr && *requested != 0; }
};

// Reduced direct dynamics from the deck's initial time to its final time with its time step:
// by default classic RK4 on (q_u, qd_u) with q_v solved by Newton (tolerance tol) and qd_v = B_vu
// qd_u at every stage (the constraints never drift); the partition's dependent columns are
// re-chosen at each step. Feeds `out` (core/step_view.hpp) the nodes' states at every step, as
// the DAE does: .mov, .out, .log and, as asked, NetCDF and HDF5 (no accelerations or momenta),
// and at the output steps the driven coordinates' forces and the loop multipliers as inverse
// dynamics writes them (.act, .lam and their groups; reactions.hpp).
struct DynamicsStats {
    long steps = 0;
    long repartitions = 0;
    long full_steps = 0;         // steps taken in full coordinates near singular configurations
    double max_violation = 0.0;  // max |h| over the output steps
    // max |Phi_u - J_u^T lambda| over the output steps with multipliers or driven forces: the
    // reduced equations' residual at the written lambda (reactions.hpp)
    double max_balance = 0.0;
    bool stopped = false;  // ended early by a StopRequest
    double t_end = 0.0;    // the time of the last step taken
};
// Below this pivot ratio of the best J_v a step is taken in full coordinates with
// minimum-norm multipliers and projected onto the constraints (singular configurations).
constexpr double singular_pivot_ratio = 1e-2;
// method two_step: the implicit two-step method of docs/formulation.md section 3 (constant step,
// spectral radius rho; the first step and every step after a change of the dependent set or a
// singular step are Crank-Nicolson) on y = (q_u, qd_u, q_c): y_k = a1 y_k-1 + a2 y_k-2 + b0 y'_k +
// b1 y'_k-1
// + b2 y'_k-2, modified Newton on y'_k with the Jacobian 1 - b0 df/dy (central differences at
// the step's start), to |dy'| <= 1e-10 (1 + |y'|).
enum class ReducedMethod { rk4, two_step };
DynamicsStats run_reduced_dynamics(const Model& model, Setup& s, RunOutput& out,
                                   ReducedMethod method = ReducedMethod::rk4, double rho = 0.6,
                                   double tol = 1e-12, const StopRequest* stop = nullptr);

// Static equilibrium: Newton on F_r(q_u) = 0 (qd = 0, drives held), F_r's Jacobian by central
// differences with constraint-consistent perturbations. Returns the iterations used; throws
// ReducedFailure without convergence. Coordinates whose column of K_r vanishes are reported in
// `insensitive` (they do not change the generalized forces).
struct EquilibriumResult {
    int iterations = 0;
    double residual = 0.0;
    std::vector<int> insensitive;
    std::vector<std::pair<std::string, double>> parameters;  // exchanged parameters found
    int spin = -1;                                           // dynamic equilibrium
    double spin_rate = 0.0;
    double time = 0.0;  // the time of the loads and of the held driven coordinates
    // Driven coordinates: (coordinate, the generalized force the joint applies to hold it: torque
    // [N m] about / force [N] along its axis, node 1 on node 2, as inverse dynamics' .act).
    std::vector<std::pair<int, double>> driving;
};
EquilibriumResult solve_equilibrium(Setup& s, double tol = 1e-10);

// Options of a `problem: equilibrium;` deck (equilibrium.cpp, docs/relative-coordinates.md 4):
// coordinates held at a value (exchange), extra equations on node positions, the parameters that
// become unknowns in their place, and a coordinate turning at a steady rate (dynamic equilibrium).
struct EquilibriumSpec {
    enum class ParamKind { body_mass, stiffness, rod_length, load_scale, spin_rate };
    struct Param {
        ParamKind kind = ParamKind::body_mass;
        int index = -1;  // into rm.bodies, rm.link_forces or rm.loads
        std::string name;
    };
    struct Extra {
        int link = -1;
        Vec3 r = Vec3::Zero();
        int comp = 0;
        double value = 0.0;
        std::string name;
    };
    std::vector<int> fixed;
    std::vector<double> fixed_value;
    std::vector<Extra> extras;
    std::vector<Param> params;
    int spin = -1;
    double spin_rate = 0.0;
    bool spin_unknown = false;
    bool has_time = false;  // `time: t;` (else the deck's initial time)
    double time = 0.0;
};
// Reads the `exchange:`, `extra:`, `spin:` and `time:` cards of the deck (InputError at the card).
EquilibriumSpec read_equilibrium_spec(const Model& model, const Setup& s);
// Newton on F_r = 0 and the extra equations for the free independent coordinates and the
// parameters (equilibrium.cpp); driven coordinates are held at their drives' values at the
// equilibrium time with zero velocity, and the forces holding them are returned.
EquilibriumResult solve_equilibrium(Setup& s, const EquilibriumSpec& spec, double tol = 1e-10);

// Writes an equilibrium through `output` (equilibrium_output.cpp): one output step at r.time
// with the nodes at s.q, s.qd (.mov .out .log, NetCDF, HDF5) and PREFIX.eq's lines as value
// blocks (HDF5 groups equilibrium_coordinates, _spin, _parameters, _driving; NetCDF
// equilibrium.coordinate.<i>.q, ...). Returns the files written.
std::vector<std::string> write_equilibrium(const Model& model, Setup& s, const EquilibriumResult& r,
                                           RunOutput& output);

// The reduced accelerations qdd_u at (q, qd) with the driven coordinates held (qd_c = qdd_c = 0,
// the state of an equilibrium; equilibrium.cpp): qd_v = B_vu qd_u, M_r qdd_u = -F_r. q must
// satisfy the constraints; t: the time of the loads. T (nq x nu, dq = T dq_u) if asked.
VecX held_accelerations(Setup& s, VecX& q, VecX& qd, double t, MatX* T = nullptr);

// Modal analysis at the equilibrium of `spec` found from the deck's configuration: A = [[0, 1],
// [df/dq_u, df/dqd_u]] with f = qdd_u (central differences) about (q*, qd*) (qd* = 0, or the
// steady motion of a `spin:` card: the linearization then has its gyroscopic and centrifugal
// terms; driven coordinates held at their equilibrium values), eigenvalues and eigenvectors
// (Eigen). Writes
// PREFIX.modal (format in docs/relative-coordinates.md 2.4 and in the file's header). Returns the
// eigenvalues sorted by frequency.
struct ModalResult {
    Eigen::VectorXcd eigenvalues;
    Eigen::MatrixXcd shapes;  // nq x 2nu, normalized to max modulus 1 (phase 0 there)
    EquilibriumResult equilibrium;
};
ModalResult run_modal(const Model& model, Setup& s, const std::string& prefix,
                      const EquilibriumSpec& spec);

// The figures of one eigenvalue written by every modal output: frequency_Hz = |lambda| / 2 pi,
// damping_percent = -100 Re(lambda) / |lambda| (0 if lambda = 0 or Re(lambda) = 0),
// damped_frequency_Hz = |Im(lambda)| / 2 pi.
struct ModalFigures {
    double frequency_Hz = 0.0, damping_percent = 0.0, damped_frequency_Hz = 0.0;
};
ModalFigures modal_figures(std::complex<double> lambda);
// What the HDF5 and NetCDF modal outputs write (core/modal_columns.hpp).
ModalColumns modal_columns(const ModalResult& r, const ReducedModel& rm);

// Inverse dynamics of the motion prescribed by the driven joints (every degree of freedom must be
// driven): at each time step of the deck, q_c from the drives (Simpson on the velocity drives),
// q_v by Newton, qd and qdd from the constraints, Phi = M qdd + c - Q by Newton-Euler, then
//   lambda = J_v^-T Phi_v   (kept rows; dropped redundant rows get 0)
//   tau_c  = Phi_c - J_c^T lambda
// (seed: Q_a = phi_e + B_fe^T phi_f with the actuated coordinates e = c; reactions.hpp).
// Feeds `output` the nodes' motion (.mov .out .log, NetCDF, HDF5, as reduced dynamics') and two
// value blocks (reactions.hpp): PREFIX.act (per output step and actuated joint: `label tau`, the
// torque [N m] or force [N] of the joint about/along its axis, node 1 -> node 2) and PREFIX.lam
// (per output step and cut: `label lambda_1 ... lambda_k`, the cut's multipliers in the order of
// its equations), and their HDF5 groups `actuators`, `loop_multipliers` and NetCDF variables.
struct InverseStats {
    long steps = 0;
    double max_violation = 0.0;
    bool stopped = false;  // ended early by a StopRequest
    double t_end = 0.0;    // the time of the last step taken
};
InverseStats run_inverse_dynamics(const Model& model, Setup& s, RunOutput& output,
                                  const StopRequest* stop = nullptr);

}  // namespace mbs::reduced
