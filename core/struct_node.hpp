// Runtime structural node (docs/formulation.md 2): unknowns, current kinematics and the rotation
// history the two-step integrator needs.
//
// Unknowns (offsets from first_dof()):
//   rigid nodes:        x(0..2), g(3..5) [, beta(6..8), gamma(9..11) if dynamic]
//   displacement nodes: x(0..2)          [, beta(3..5) if dynamic]
// Equations in the same rows: force(0..2), moment(3..5) [, momentum definitions].
//
// Orientation: R = R(g) Rref with Rref the orientation at the end of the previous step, fixed
// during a step, so w = G(g) g' exactly. After a converged step Rref <- R and the history of g
// is re-expressed relative to the new Rref (rebase()); g therefore stays O(dt), never near pi.
//
// Elements write their Jacobians with respect to the node's kinematic variables: position x,
// virtual rotation theta (dtheta = G(g) dg), velocity xdot and angular velocity w. chain() turns
// those four R x 3 blocks into the R x 6 block of the node's (x, g) columns.
#pragma once

#include <optional>
#include <string>

#include "core/element.hpp"
#include "core/rotations.hpp"

namespace mbs {

class StructNode {
  public:
    enum class Kind { static_rigid, dynamic_rigid, static_disp, dynamic_disp, dummy };

    explicit StructNode(const EntityDesc& d);
    const EntityDesc& desc() const { return *desc_; }
    long label() const { return desc_->label; }
    Kind kind() const { return kind_; }
    bool has_rotation() const {
        return kind_ == Kind::static_rigid || kind_ == Kind::dynamic_rigid;
    }
    bool is_dynamic() const { return kind_ == Kind::dynamic_rigid || kind_ == Kind::dynamic_disp; }
    bool is_dummy() const { return kind_ == Kind::dummy; }
    // Number of unknowns and of position-level columns (x and g).
    int ndofs() const;
    int pos_cols() const { return has_rotation() ? 6 : 3; }
    int first_dof() const { return first_dof_; }
    void set_first_dof(int i) { first_dof_ = i; }
    int momentum_dof() const { return first_dof_ + pos_cols(); }
    static const char* dof_name(int i, bool rotation);  // "force x", "moment z", "momentum y", ...
    static const char* unknown_name(int i, bool rotation);  // "position x", "rotation z", ...

    // --- initial values (from the deck) written into y and y'
    void initialize(double* y, double* yp);

    // --- current kinematics (valid after update())
    Vec3 x = Vec3::Zero(), xdot = Vec3::Zero(), w = Vec3::Zero();
    Mat3 R = Mat3::Identity();
    Vec3 g = Vec3::Zero(), gdot = Vec3::Zero();
    Vec3 beta = Vec3::Zero(), gamma = Vec3::Zero(), beta_dot = Vec3::Zero(),
         gamma_dot = Vec3::Zero();
    Mat3 G = Mat3::Identity();  // G(g)
    Mat3 Gd = Mat3::Zero();     // d(G(g) g')/dg at fixed g'
    Mat3 Rref = Mat3::Identity();

    // Recomputes the kinematics from the unknowns.
    void update(const StateView& s);
    // Dummy nodes: kinematics from the base node.
    void update_dummy(const StructNode& base);

    // --- two-step history
    // After a converged step: Rref <- R, and the history is shifted.
    void commit();
    // Re-expresses the rotation entries of the stored history vectors relative to Rref:
    // g_{k-1} = 0, g'_{k-1} = w_{k-1}; g_{k-2} = cgr(R_{k-2} Rref^T), g'_{k-2} = G(g_{k-2})^-1
    // w_{k-2}.
    void rebase(double* y1, double* yp1, double* y2, double* yp2) const;

    // --- chain rule from kinematic derivatives to the (x, g) columns (see file comment)
    template <int Rows>
    Eigen::Matrix<double, Rows, 6> chain(const Eigen::Matrix<double, Rows, 3>& Dx,
                                         const Eigen::Matrix<double, Rows, 3>& Dth,
                                         const Eigen::Matrix<double, Rows, 3>& Dxd,
                                         const Eigen::Matrix<double, Rows, 3>& Dw,
                                         const StepContext& c) const {
        Eigen::Matrix<double, Rows, 6> out;
        if (c.phase == Phase::assembly) {
            out.template leftCols<3>() = Dx;
            out.template rightCols<3>() = Dth * G;
            return out;
        }
        out.template leftCols<3>() = Dxd + c.dCoef * Dx;
        out.template rightCols<3>() = (Dw + c.dCoef * Dth) * G + c.dCoef * Dw * Gd;
        return out;
    }
    // Position-only dependence (no velocities).
    template <int Rows>
    Eigen::Matrix<double, Rows, 6> chain_pos(const Eigen::Matrix<double, Rows, 3>& Dx,
                                             const Eigen::Matrix<double, Rows, 3>& Dth,
                                             const StepContext& c) const {
        Eigen::Matrix<double, Rows, 6> out;
        double k = c.phase == Phase::assembly ? 1.0 : c.dCoef;
        out.template leftCols<3>() = k * Dx;
        out.template rightCols<3>() = k * Dth * G;
        return out;
    }

    // --- accelerations (solvers/dae/accelerations.hpp), set after each converged step:
    // linear acceleration XPP and angular acceleration OmegaP (global frame). accel_state says
    // whether they are defined: dynamic nodes with inertia, and dummy nodes on such nodes.
    enum class AccelState : unsigned char { none, ok, no_inertia };
    Vec3 xpp = Vec3::Zero(), wp = Vec3::Zero();
    AccelState accel_state = AccelState::none;
    // `accelerations, yes` on the card, `output: structural, accelerations, ...` or `default
    // output: accelerations`: XPP and OmegaP are appended to the node's output.
    bool accel_output = false;
    // Output options of the card: its `orientation description` ("": the control data's
    // `default orientation`) and `output inertia` (empty: not given).
    std::string orientation_description;
    std::optional<bool> output_inertia;
    // The card's `assembly` stiffnesses (empty: the control data's `initial stiffness`).
    std::optional<double> assembly_position_stiffness, assembly_velocity_stiffness;
    // A `node` drive reads an acceleration of this node (set when the drive is built).
    mutable bool accel_read = false;
    // Lumped inertia of the bodies on the node, node frame: mass, static moment m xc, inertia
    // about the node (each body adds its own when it is built).
    double inertia_m = 0.0;
    Vec3 inertia_s = Vec3::Zero();
    Mat3 inertia_J = Mat3::Zero();
    bool inertia_ready = false;

    // Previous-step data kept for rebase() and output.
    Mat3 R_prev = Mat3::Identity(), R_prev2 = Mat3::Identity();
    Vec3 w_prev = Vec3::Zero(), w_prev2 = Vec3::Zero();

    // Dummy nodes: base node and offset (`offset`), or the frame the base node is seen from
    // (`relative frame`: ref node with offset/orientation, optional pivot node; see update_dummy).
    const StructNode* base = nullptr;
    const StructNode* frame_ref = nullptr;
    const StructNode* pivot = nullptr;
    Vec3 dummy_offset = Vec3::Zero(), pivot_offset = Vec3::Zero();
    Mat3 dummy_R = Mat3::Identity(), pivot_R = Mat3::Identity();
    bool relative_frame() const { return frame_ref != nullptr; }

  private:
    const EntityDesc* desc_;
    Kind kind_;
    int first_dof_ = -1;
};

// d(G(g) v)/dg for fixed v: -(c^2/2) (v + 1/2 g x v) g^T - (c/2) skew(v), c = 4/(4 + g.g).
Mat3 cgr_G_times_derivative(const Vec3& g, const Vec3& v);
// G(g)^-1 = I - 1/2 skew(g) + 1/4 g g^T.
Mat3 cgr_G_inverse(const Vec3& g);

}  // namespace mbs
