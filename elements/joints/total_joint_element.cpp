// Card readers, runtime and registrations of `joint: L, total joint` and `total pin joint`
// (docs/deck-language.md 5.2; their card syntax, sides and constraint blocks, is read by
// cards::read_total_joint_card and read_total_pin_joint_card, total_joint_cards.cpp).
// Typed spec: cards::TotalSpec (total_joint.hpp), shared by the five total-family kinds below.
// Relative-coordinate path: cards::total_tree_edge (total_tree_edge.cpp).
//
// Card reader for `joint: L, drive hinge` (docs/deck-language.md 5.2): imposes the relative
// rotation.
//   drive hinge, n1 [, orientation, R1h], n2 [, orientation, R2h], <TplDC Vec3 rotation vector>
// TotalSpec: the ends' `orientation` frames are the rotation frames; the drive (the relative
// rotation vector, radians, in the frame R1 R1h; its norm must stay below pi) is the imposed
// rotation.
// Relative-coordinate path: a total joint with the rotation imposed (total_tree_edge.cpp).
//
// `imposed displacement`, `imposed displacement pin` and `imposed orientation`: MBDyn's obsolete
// names of total (pin) joints (cards::read_imposed_displacement_card, ...), same runtime and edge.
//
// Card readers for `joint: L, drive displacement` and `drive displacement pin`
// (docs/deck-language.md 5.2): impose the relative position of two points.
//   drive displacement, n1, [position,] off1, n2, [position,] off2, <TplDC Vec3>
//   drive displacement pin, node, [position,] off, [position,] <abs x>, <TplDC Vec3>
// The imposed vector is the position of point 2 relative to point 1 (pin: of the node point
// relative to x), in the node-1 frame (pin: the global frame).
// TotalSpec: the drive is the imposed position (pin: end 1 is the ground point `position`).
// Relative-coordinate path: a total (pin) joint with the position imposed
// (total_tree_edge.cpp).
//
// Card reader for `joint: L, axial rotation` (docs/deck-language.md 5.2): a revolute hinge whose
// relative angular velocity about axis 3 is imposed.
//   axial rotation, n1, [position,] off1 [, orientation, R1h], n2, [position,] off2
//       [, orientation, R2h], <DriveCaller omega> [, orientation description, od]
//       [, output, ...] [, friction, ...]   (friction is refused)
// Typed spec: AxialRotationSpec (the two ends, node frames; the drive omega, rad/s; the
// orientation description).
// Relative-coordinate path: the revolute hinge's rotation (cards::revolute_tree_edge), driven at
// velocity level.
//
// Runtime total joint and the joints that are special cases of it (docs/deck-language.md 5.2):
// `total joint`, `total pin joint`, `drive hinge`, `drive displacement`, `drive displacement pin`
// and `axial rotation`. Each component of the relative position and of the relative rotation is
// inactive, imposed at position level, or imposed at velocity level; only the imposed components
// own a multiplier.
//
// End 1 (a node, or the ground for the pins) carries the frames: Rp = R1 R1p (position frame) and
// Ra = R1 R1r (rotation frame); end 2 the rotation frame Rb = R2 R2r. p_k = x_k + R_k f_k are the
// two points, b1 = p2 - x1, b2 = R2 f2, s = xdot2 + w2 x b2 - xdot1 - w1 x b1 (= d/dt (p2 - p1)
// seen from the rotating frame Rp). d(t) and theta(t) are the imposed vectors (template drives);
// only the components with a position-level status enter R0 = exp(theta) (MBDyn zeroes the others
// too).
//
// Constraints (rows: r = -phi/dCoef at position level, r = -phi at velocity level):
//   position:          phi_i = e_i . (Rp^T (p2 - p1) - d)
//   velocity:          phi_i = e_i . (Rp^T s - d)
//   rotation:          phi_i = e_i . log(E),  E = R0^T Ra^T Rb   (exact for any imposed rotation)
//   angular velocity:  phi_i = e_i . (Ra^T (w2 - w1) - theta)
// Multipliers: the force components Fl (frame Rp) and the couples Mr (rotation rows), Mw (angular
// velocity rows). With F = Rp Fl and M = A^T Mr + Ra Mw the joint applies F, b1 x F + M to end 1
// and -F, -(b2 x F + M) to end 2 (r_node = -(dphi/dq)^T lambda: the matrix is symmetric).
//
// Variations (dtheta_k: virtual rotations; dRp = skew(dtheta1) Rp, ...):
//   d(Rp^T (p2 - p1)) = Rp^T (dx2 - skew(b2) dtheta2 - dx1 + skew(b1) dtheta1)
//   dE = skew(R0^T Ra^T (dtheta2 - dtheta1)) E, so  d log(E) = A (dtheta2 - dtheta1),
//        A = Jl^-1(phi) R0^T Ra^T,  Jl^-1(phi) = I - 1/2 skew(phi) + c(a) skew(phi)^2,
//        c(a) = (1 - a/2 cot(a/2)) / a^2, a = |phi|   (Jl = rotvec::Gamma, Jl^-1 =
//        rotvec::Gamma_inverse, dg/dphi = rotvec::Ginv_T_d, core/rotation_vector.hpp)
//   A^T Mr = Ra R0 g(phi),  g(phi) = Mr + 1/2 phi x Mr + c(a) phi x (phi x Mr),
//        dg/dphi = -1/2 skew(Mr) + c ((phi.Mr) I + phi Mr^T - 2 Mr phi^T)
//                  + c'(a)/a (phi (phi.Mr) - a^2 Mr) phi^T;   K = Ra R0 dg/dphi A
//   d(b1 x F + M) = skew(F) (dx1 - dx2) + skew(F) skew(b2) dtheta2 + K dtheta2
//                   - (skew(b1) skew(F) + skew(M) + K) dtheta1
//   d(b2 x F) = -skew(F) skew(b2) dtheta2 - skew(b2) skew(F) dtheta1;  dF = -skew(F) dtheta1
//   d(Rp^T s) = Rp^T (skew(s) dtheta1 + dxd2 - skew(b2) dw2 - skew(w2 - w1) skew(b2) dtheta2
//               - dxd1 + skew(b1) dw1 + skew(w1) (dx1 - dx2))
//   d(Ra^T (w2 - w1)) = Ra^T (skew(w2 - w1) dtheta1 + dw2 - dw1)
// Velocity-level rows go through the node chain rule with velocities (not divided by dCoef). In the
// initial position assembly their multipliers are held at zero (the row is lambda = 0); its
// velocity part imposes them from the run's rows (Simulation::assemble_velocities()).
//
// .jnt output: label, F and M in the joint frame (f = Rp^T F, m = Ra^T M), F and M global: the
// reaction on end 1, the ground for the pins, as MBDyn (TotalJoint, TotalPinJoint: totalj.cc,
// DriveHingeJoint: drvhinge.cc, DriveDisplacement(Pin)Joint: drvdisp.cc add +F to their node 1,
// the pins' ground, and write that F). The axial rotation (MBDyn's AxialRotationJoint,
// planej.cc, a plane hinge whose node 1 receives -F) reports minus that, the reaction on end 2,
// in end 2's hinge frame Rb (docs/reactions.md). Then per joint type what MBDyn writes:
//   total (pin) joint:   Rp^T (p2 - p1), log(Ra^T Rb), Rp^T s, Ra^T (w2 - w1)
//   drive hinge:         Euler 123 angles of Ra^T Rb (degrees), log(Ra^T Rb)
//   drive displacement:  p2 - p1 (global)
//   axial rotation:      Euler 123 angles of Ra^T Rb (degrees), omega(t), Rb^T (w2 - w1)
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/log_line.hpp"
#include "core/registry.hpp"
#include "core/rotation_vector.hpp"
#include "core/rotations.hpp"
#include "elements/drives/driven_hints.hpp"
#include "elements/joints/joint_ends.hpp"
#include "elements/joints/joint_kit.hpp"
#include "elements/joints/joint_orientation.hpp"
#include "elements/joints/total_joint.hpp"
#include "elements/misc/card_helpers.hpp"

namespace mbs {
namespace {

void read_total_joint(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<cards::TotalSpec>();
    cards::read_total_joint_card(r, *s);
    e.spec = std::move(s);
}

void read_total_pin_joint(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<cards::TotalSpec>();
    cards::read_total_pin_joint_card(r, *s);
    e.spec = std::move(s);
}

// MBDyn's obsolete names of total joints (total_joint_cards.cpp): TotalSpec, total forms.
template <void (*Card)(Reader&, cards::TotalSpec&)>
void read_total_alias(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<cards::TotalSpec>();
    Card(r, *s);
    e.spec = std::move(s);
}

void read_drive_hinge(Reader& r, EntityDesc& e) {
    cards::EndOptions opt;
    opt.offset = cards::Offset::none;
    auto end1 = cards::read_end1(r, "drive hinge", opt);
    auto end2 = cards::read_end2(r, end1, "drive hinge", opt);
    auto s = std::make_shared<cards::TotalSpec>();
    s->form = cards::TotalForm::drive_hinge;
    s->end[0] = cards::end_spec(end1);
    s->end[1] = cards::end_spec(end2);
    s->rot.fill(cards::Level::position);
    s->rot_drive[0] = r.tpl_drive(3, "imposed relative rotation");
    e.spec = std::move(s);
}

void read_drive_displacement(Reader& r, EntityDesc& e) {
    cards::EndOptions opt;
    opt.orientation = false;
    auto end1 = cards::read_end1(r, "drive displacement joint", opt);
    auto end2 = cards::read_end2(r, end1, "drive displacement joint", opt);
    auto s = std::make_shared<cards::TotalSpec>();
    s->form = cards::TotalForm::drive_displacement;
    s->end[0] = cards::end_spec(end1);
    s->end[1] = cards::end_spec(end2);
    s->pos.fill(cards::Level::position);
    s->pos_drive[0] = r.tpl_drive(3, "imposed relative displacement");
    e.spec = std::move(s);
}

void read_drive_displacement_pin(Reader& r, EntityDesc& e) {
    auto s = std::make_shared<cards::TotalSpec>();
    s->form = cards::TotalForm::drive_displacement_pin;
    cards::EndSpec& n = s->end[1];
    n.node_loc = r.loc();
    const EntityDesc& node = cards::read_structural_node(r, "node", "drive displacement pin");
    n.node = cards::node_ref(node);
    r.accept("position");
    n.offset_loc = r.loc();
    n.offset = r.position_rel(node, "offset");
    n.orientation_loc = n.node_loc;
    r.accept("position");
    s->end[0].node_loc = s->end[0].offset_loc = s->end[0].orientation_loc = r.loc();
    s->end[0].offset = r.position_abs("ground point", &node);
    s->pos.fill(cards::Level::position);
    s->pos_drive[0] = r.tpl_drive(3, "imposed displacement");
    e.spec = std::move(s);
}

using el::End;
using el::Mat63;

using cards::Level;
enum class Style : std::uint8_t { total, drive_hinge, drive_displacement, axial_rotation };

struct Config {
    End e[2];                    // e[0] may be the ground; e[1] is a node
    Mat3 Rp = Mat3::Identity();  // position frame of end 1 (node frame, or absolute)
    Mat3 Rr[2] = {Mat3::Identity(), Mat3::Identity()};  // rotation frames
    std::array<Level, 3> pos{}, rot{};
    TplDrive<3> pos_drive, rot_drive;  // null unless given
    DrivePtr axial;                    // axial rotation: imposed angular velocity about axis 3
    el::Od od = el::Od::euler123;      // axial rotation: output of the relative rotation
    Style style = Style::total;
};

struct Row {
    bool rotation;
    bool velocity;
    int comp;
};

// Kinematics shared by residual, Jacobian and output.
struct Kin {
    Mat3 Rp, Ra, Rb, R0;
    Vec3 x1, w1, w2, p1, p2, b1, b2, s;
    Vec3 phi;  // log(E)
    Mat3 A;    // d phi = A (dtheta2 - dtheta1)
    Vec3 d, theta;
};

// An axial rotation's .log line, from its spec (AxialRotationSpec, below).
std::string axial_rotation_log_line(const EntityDesc& d);

class TotalJoint final : public Element, public el::Hintable {
  public:
    TotalJoint(const EntityDesc& desc, Config cfg) : Element(desc), k_(std::move(cfg)) {
        for (int i = 0; i < 3; ++i)
            if (k_.pos[i] != Level::inactive)
                rows_.push_back({false, k_.pos[i] == Level::velocity, i});
        for (int i = 0; i < 3; ++i)
            if (k_.rot[i] != Level::inactive)
                rows_.push_back({true, k_.rot[i] == Level::velocity, i});
        for (const Row& r : rows_) has_velocity_rows_ = has_velocity_rows_ || r.velocity;
    }

    int own_dofs() const override { return static_cast<int>(rows_.size()); }

    // MBDyn's .log lines (struct/joint.cc, struct/totaljoint.cc):
    //   totaljoint: L n1 f1 Rp1 Rr1 n2 f2 Rp2 Rr2 <flags>
    //   totalpinjoint: L n f Rp Rr X0 Rp0 Rr0 <flags>   (imposed displacement pin: no flags)
    //   drivedisplacement: L n1 f1 n2 f2;  drivedisplacementpin: L n f X0
    //   axialrotation: L n1 f1 R1 n2 f2 R2
    // <flags>: 12 zeros and ones, position, velocity, rotation and angular velocity components
    // constrained. A drive hinge has no line in MBDyn (the default one is written).
    std::string log_line() const override {
        LogLine l;
        if (k_.style == Style::axial_rotation) return axial_rotation_log_line(desc());
        const auto& s = desc().spec_as<cards::TotalSpec>();
        const auto flags = [&] {
            for (Level want : {Level::position, Level::velocity})
                for (int i = 0; i < 3; ++i) l.label(s.pos[i] == want ? 1 : 0);
            for (Level want : {Level::position, Level::velocity})
                for (int i = 0; i < 3; ++i) l.label(s.rot[i] == want ? 1 : 0);
        };
        switch (s.form) {
            case cards::TotalForm::total:
                l.word("totaljoint:").label(label());
                for (int k = 0; k < 2; ++k)
                    l.label(s.end[k].node.label)
                        .vec(s.end[k].offset)
                        .mat(s.position_frame[k])
                        .mat(s.end[k].R);
                flags();
                return l.s;
            case cards::TotalForm::total_pin:
                l.word("totalpinjoint:").label(label()).label(s.end[1].node.label);
                l.vec(s.end[1].offset).mat(s.position_frame[1]).mat(s.end[1].R);
                l.vec(s.end[0].offset).mat(s.position_frame[0]).mat(s.end[0].R);
                if (desc().type != "imposed displacement pin") flags();  // MBDyn writes none
                return l.s;
            case cards::TotalForm::drive_displacement:
                return cards::log_two_ends("drivedisplacement", label(), s.end, true, false);
            case cards::TotalForm::drive_displacement_pin:
                l.word("drivedisplacementpin:").label(label()).label(s.end[1].node.label);
                return l.vec(s.end[1].offset).vec(s.end[0].offset).s;
            case cards::TotalForm::drive_hinge:
                break;
        }
        return {};
    }
    std::string own_dof_name(int i) const override {
        static const char* kind[2][2] = {{"position", "velocity"},
                                         {"rotation", "angular velocity"}};
        const Row& r = rows_[i];
        return std::string(kind[r.rotation][r.velocity]) + " " + "xyz"[r.comp];
    }
    bool in_assembly() const override {
        for (const Row& r : rows_)
            if (!r.velocity) return true;
        return false;
    }

    void declare(PatternBuilder& p) override {
        b_.declare(p, k_.e, 2, first_dof(), own_dofs(), has_velocity_rows_);
    }

    void residual(const StepContext& c, const StateView& s, double* r) const override {
        if (rows_.empty()) return;
        Kin q = kinematics(c.time);
        const double* lam = s.yp + first_dof();
        double* rc = r + first_dof();
        Vec3 F, M;
        wrench(q, lam, F, M);
        if (!k_.e[0].ground()) el::add_wrench(r, *k_.e[0].node, F, q.b1.cross(F) + M);
        el::add_wrench(r, *k_.e[1].node, -F, -(q.b2.cross(F) + M));
        Vec3 dpos = q.Rp.transpose() * (q.p2 - q.p1) - q.d;
        Vec3 dvel = q.Rp.transpose() * q.s - q.d;
        Vec3 dw = q.Ra.transpose() * (q.w2 - q.w1) - q.theta;
        for (std::size_t k = 0; k < rows_.size(); ++k) {
            const Row& w = rows_[k];
            if (w.velocity && c.phase == Phase::assembly)
                rc[k] += lam[k];
            else if (w.velocity)
                rc[k] -= w.rotation ? dw[w.comp] : dvel[w.comp];
            else
                rc[k] -= (w.rotation ? q.phi[w.comp] : dpos[w.comp]) / c.dCoef;
        }
    }

    void jacobian(const StepContext& c, const StateView& s, Jacobian& J) const override {
        if (rows_.empty()) return;
        Kin q = kinematics(c.time);
        const double* lam = s.yp + first_dof();
        Vec3 F, M, Fl = Vec3::Zero(), Mr = Vec3::Zero(), Mw = Vec3::Zero();
        wrench(q, lam, F, M);
        split(lam, Fl, Mr, Mw);
        Mat3 K = q.Ra * q.R0 * rotvec::Ginv_T_d(q.phi, Mr) * q.A;
        const bool node1 = !k_.e[0].ground();
        Mat3 sF = skew(F), sb1 = skew(q.b1), sb2 = skew(q.b2);

        // Node rows (force 0..2, moment 3..5) w.r.t. x and theta of both ends.
        el::JointJac jj;
        if (node1) {
            jj.nDth[0][0].topRows<3>() = -sF;
            jj.nDx[0][0].bottomRows<3>() = sF;
            jj.nDx[0][1].bottomRows<3>() = -sF;
            jj.nDth[0][1].bottomRows<3>() = sF * sb2 + K;
            jj.nDth[0][0].bottomRows<3>() = -sb1 * sF - skew(M) - K;
            jj.nDth[1][0].topRows<3>() = sF;
            jj.nDth[1][0].bottomRows<3>() = sb2 * sF + skew(M) + K;
        }
        jj.nDth[1][1].bottomRows<3>() = -sF * sb2 - K;

        // Multiplier columns and constraint rows.
        Mat3 RpT = q.Rp.transpose(), RaT = q.Ra.transpose();
        Mat3 Dth1 = RpT * sb1, Dth2 = RpT * sb2;
        Mat63 vDx[2], vDth[2], vDxd[2], vDw[2];
        for (int k = 0; k < 2; ++k)
            vDx[k].setZero(), vDth[k].setZero(), vDxd[k].setZero(), vDw[k].setZero();
        Mat6 ll = Mat6::Zero();
        for (std::size_t k = 0; k < rows_.size(); ++k) {
            const Row& w = rows_[k];
            const int i = w.comp;
            if (!w.rotation) {
                Vec3 u = q.Rp.col(i);
                jj.nl[0].block<3, 1>(0, k) = u;
                jj.nl[0].block<3, 1>(3, k) = q.b1.cross(u);
                jj.nl[1].block<3, 1>(0, k) = -u;
                jj.nl[1].block<3, 1>(3, k) = -q.b2.cross(u);
            } else {
                Vec3 u = w.velocity ? Vec3(q.Ra.col(i)) : Vec3(q.A.row(i).transpose());
                jj.nl[0].block<3, 1>(3, k) = u;
                jj.nl[1].block<3, 1>(3, k) = -u;
            }
            if (w.velocity && c.phase == Phase::assembly) {
                ll(k, k) = 1.0;
            } else if (!w.rotation && !w.velocity) {
                jj.lDx[0].row(k) = RpT.row(i);
                jj.lDth[0].row(k) = -Dth1.row(i);
                jj.lDx[1].row(k) = -RpT.row(i);
                jj.lDth[1].row(k) = Dth2.row(i);
            } else if (w.rotation && !w.velocity) {
                jj.lDth[0].row(k) = q.A.row(i);
                jj.lDth[1].row(k) = -q.A.row(i);
            } else if (!w.rotation) {
                vDxd[0].row(k) = RpT.row(i);
                vDw[0].row(k) = -Dth1.row(i);
                vDx[0].row(k) = -(RpT * skew(q.w1)).row(i);
                vDth[0].row(k) = -(RpT * skew(q.s)).row(i);
                vDxd[1].row(k) = -RpT.row(i);
                vDw[1].row(k) = Dth2.row(i);
                vDx[1].row(k) = (RpT * skew(q.w1)).row(i);
                vDth[1].row(k) = (RpT * skew(q.w2 - q.w1) * sb2).row(i);
            } else {
                vDth[0].row(k) = -(RaT * skew(q.w2 - q.w1)).row(i);
                vDw[0].row(k) = RaT.row(i);
                vDw[1].row(k) = -RaT.row(i);
            }
        }
        jj.flush(k_.e, b_, c, J);
        if (!has_velocity_rows_) return;
        if (c.phase == Phase::assembly) {
            J.add(b_.ll, ll);
            return;
        }
        for (int k = 0; k < 2; ++k)
            if (!k_.e[k].ground())
                J.add(b_.ln[k], k_.e[k].node->chain<6>(vDx[k], vDth[k], vDxd[k], vDw[k], c));
    }

    // Time derivative of the position-level rows at fixed nodes (velocity rows hold lambda in
    // the assembly: no time dependence there):
    //   position:  r = -(Rp^T (p2 - p1) - d(t)) / dCoef       dr/dt = d'(t) / dCoef
    //   rotation:  r = -log(E) / dCoef,  E = R0(t)^T Ra^T Rb,  R0 = exp(theta0(t)):
    //              dR0/dt = R0 skew(Jr(theta0) theta0'), so dE/dt = skew(u) E (a left increment)
    //              with u = -Jr(theta0) theta0', d log(E)/dt = Jl^-1(phi) u and
    //              dr/dt = Jl^-1(phi) Jr(theta0) theta0' / dCoef   (Jr(theta0) = Gamma(theta0)^T)
    // (theta0: the position-level components of theta, as in kinematics()). Not given when a
    // drive has no derivative.
    bool constraint_rate(const StepContext& c, const StateView& /*s*/, double* r) const override {
        if (rows_.empty()) return true;
        if (!k_.pos_drive.differentiable() || !k_.rot_drive.differentiable()) return false;
        const Kin q = kinematics(c.time);
        const Vec3 dd = k_.pos_drive.deriv(c.time), dth = k_.rot_drive.deriv(c.time);
        Vec3 th0 = Vec3::Zero(), dth0 = Vec3::Zero();
        for (int i = 0; i < 3; ++i)
            if (k_.rot[i] == Level::position) th0[i] = q.theta[i], dth0[i] = dth[i];
        const Vec3 rot_rate = rotvec::Gamma_inverse(q.phi) * rotvec::Gamma(th0).transpose() * dth0;
        double* rc = r + first_dof();
        for (std::size_t k = 0; k < rows_.size(); ++k) {
            const Row& w = rows_[k];
            if (!w.velocity) rc[k] += (w.rotation ? rot_rate[w.comp] : dd[w.comp]) / c.dCoef;
        }
        return true;
    }

    void after_step(const StepContext& c, const StateView& s) override {
        k_.pos_drive.after_step();
        k_.rot_drive.after_step();
        if (k_.axial) k_.axial->after_step();
        time_ = c.time;
        if (rows_.empty()) return;
        Kin q = kinematics(c.time);
        wrench(q, s.yp + first_dof(), F_, M_);
    }

    const char* output_file() const override { return "jnt"; }
    // NetCDF: MBDyn's TotalJoint/TotalPinJoint::OutputPrepare X, Phi, V, Omega (type "total",
    // "totalpin"); axial rotation E (Phi, R: its orientation description), Omega as MBDyn's
    // AxialRotationJoint (the .jnt extras; the imposed angular velocity between them is not a
    // NetCDF variable in MBDyn).
    bool output_schema(OutputSchema& s) const override {
        if (!el::reaction_schema(*this, s)) return false;
        switch (k_.style) {
            case Style::total:
                s.nc_type = desc().spec_as<cards::TotalSpec>().pin() ? "totalpin" : "total";
                el::joint_quantity(s, "X", 3, "m", "local", "local relative position (x, y, z)",
                                   12);
                el::joint_quantity(s, "Phi", 3, "radian", "local",
                                   "local relative orientation vector (Phi_X, Phi_Y, Phi_Z)", 15);
                s.orientation = el::od_keyword(el::Od::vector);
                el::joint_quantity(s, "V", 3, "m/s", "local", "local relative velocity (x, y, z)",
                                   18);
                el::joint_omega(s, 21);
                break;
            case Style::axial_rotation:
                s.nc_type = "axial rotation";
                el::joint_orientation(s, k_.od, 12);
                el::joint_omega(s, 13 + el::od_columns(k_.od));
                break;
            default:
                break;
        }
        return true;
    }
    bool reaction(Vec3& f, Vec3& m, Vec3& F, Vec3& M) const override {
        Kin q = kinematics(time_);
        if (k_.style == Style::axial_rotation)
            return el::reported_reaction(el::Reported::on_end2, F_, M_, q.Rb, q.Rb, f, m, F, M);
        return el::reported_reaction(el::Reported::on_end1, F_, M_, q.Rp, q.Ra, f, m, F, M);
    }
    int output_values(double* v) const override {
        Vec3 f, m, F, M;
        reaction(f, m, F, M);
        Kin q = kinematics(time_);
        int n = 0;
        auto put = [&](const Vec3& a) {
            for (int i = 0; i < 3; ++i) v[n++] = a[i];
        };
        put(f), put(m), put(F), put(M);
        Mat3 Rrel = q.Ra.transpose() * q.Rb;
        Vec3 wrel = q.Ra.transpose() * (q.w2 - q.w1);
        switch (k_.style) {
            case Style::total:
                put(q.Rp.transpose() * (q.p2 - q.p1));
                put(matrix_to_rotation_vector(Rrel));
                put(q.Rp.transpose() * q.s);
                put(wrel);
                break;
            case Style::drive_hinge:
                put(matrix_to_euler123(Rrel) * (180.0 / M_PI));
                put(matrix_to_rotation_vector(Rrel));
                break;
            case Style::drive_displacement:
                put(q.p2 - q.p1);
                break;
            case Style::axial_rotation:
                n += el::put_orientation(k_.od, Rrel, v + n);
                v[n++] = k_.axial->value(time_);
                put(q.Rb.transpose() * (q.w2 - q.w1));
                break;
        }
        return n;
    }

    // Private data of total joints and total pin joints (MBDyn's TotalJoint, 24 data), at the
    // current iterate and the clock's time: px..pz relative position Rp^T (p2 - p1), rx..rz
    // relative rotation vector of Ra^T Rb (not unwrapped), Fx..Mz the reaction in the joint
    // frames (the .jnt columns 2-7), dx..dz and tx..tz the imposed position and rotation, vx..vz
    // relative velocity Rp^T s, wx..wz relative angular velocity Ra^T (w2 - w1). The other
    // styles (drive hinge, drive displacement, axial rotation) have none here.
    int private_data_count() const override { return k_.style == Style::total ? 24 : 0; }
    const char* private_data_name(int i) const override {
        static const char* nm[] = {"px", "py", "pz", "rx", "ry", "rz", "Fx", "Fy",
                                   "Fz", "Mx", "My", "Mz", "dx", "dy", "dz", "tx",
                                   "ty", "tz", "vx", "vy", "vz", "wx", "wy", "wz"};
        return nm[i];
    }
    double private_data(int i, const StateView& s) const override {
        const Kin q = kinematics(clock_ ? clock_->time : time_);
        const int g = i / 3, c = i % 3;
        Vec3 v;
        if (g == 0) v = q.Rp.transpose() * (q.p2 - q.p1);
        if (g == 1) v = matrix_to_rotation_vector(q.Ra.transpose() * q.Rb);
        if (g == 2 || g == 3) {
            Vec3 F = Vec3::Zero(), M = Vec3::Zero();
            if (!rows_.empty()) wrench(q, s.yp + first_dof(), F, M);
            v = g == 2 ? Vec3(q.Rp.transpose() * F) : Vec3(q.Ra.transpose() * M);
        }
        if (g == 4) v = q.d;
        if (g == 5) v = q.theta;
        if (g == 6) v = q.Rp.transpose() * q.s;
        if (g == 7) v = q.Ra.transpose() * (q.w2 - q.w1);
        return v[c];
    }
    void set_clock(const SimClock* c) { clock_ = c; }

    // `driven` hints (MBDyn's TotalJoint/DriveHingeJoint/DriveDisplacementJoint::ParseHint):
    //   total (pin) joint:   offset{1|2}, position-hinge{1}, orientation-hinge{1|2}
    //   drive hinge:         hinge{1|2} (its rotation frames)
    //   drive displacement:  offset{1|2}
    // position-hinge{2} is refused: end 2 has no position frame here (MBDyn's R2h does not enter
    // the position constraint). The ends move so that the constraint holds at the switch-on time
    // t with the imposed d(t), theta(t) (position-level components):
    //   offset{1}: p1 = p2 - Rp d            offset{2}: p2 = p1 + Rp d
    //   position-hinge{1}: Rp = R2 (node 2's frame; MBDyn's R1h = R1^T R2 R2h, R2h = I)
    //   orientation-hinge{1}: Ra = Rb R0^T    orientation-hinge{2}: Rb = Ra R0
    // (MBDyn's R1hr = R1^T R2 R2hr ignores R0: the same when theta(t) = 0 at the switch-on.)
    bool takes_hint(el::Hint h) const override {
        using el::Hint;
        switch (k_.style) {
            case Style::total:
                return h == Hint::offset1 || h == Hint::offset2 || h == Hint::position_hinge1 ||
                       h == Hint::orientation_hinge1 || h == Hint::orientation_hinge2;
            case Style::drive_hinge:
                return h == Hint::hinge1 || h == Hint::hinge2;
            case Style::drive_displacement:
                return h == Hint::offset1 || h == Hint::offset2;
            case Style::axial_rotation:
                return false;
        }
        return false;
    }
    void apply_hint(el::Hint h, double t) override {
        using el::Hint;
        const Kin q = kinematics(t);
        Vec3 d = Vec3::Zero();
        for (int i = 0; i < 3; ++i)
            if (k_.pos[i] == Level::position) d[i] = q.d[i];
        const End& e1 = k_.e[0];
        const Mat3 R1 = e1.ground() ? Mat3(Mat3::Identity()) : e1.node->R;
        const Mat3 R2 = k_.e[1].node->R;
        switch (h) {
            case Hint::offset1:
                el::set_end_point(k_.e[0], q.p2 - q.Rp * d);
                break;
            case Hint::offset2:
                el::set_end_point(k_.e[1], q.p1 + q.Rp * d);
                break;
            case Hint::position_hinge1:
                k_.Rp = R1.transpose() * R2;
                break;
            case Hint::hinge1:
            case Hint::orientation_hinge1:
                k_.Rr[0] = R1.transpose() * q.Rb * q.R0.transpose();
                break;
            case Hint::hinge2:
            case Hint::orientation_hinge2:
                k_.Rr[1] = R2.transpose() * q.Ra * q.R0;
                break;
            default:
                break;
        }
    }

  private:
    const SimClock* clock_ = nullptr;
    Kin kinematics(double t) const {
        const End& e1 = k_.e[0];
        const StructNode& n2 = *k_.e[1].node;
        Kin q;
        q.Rp = e1.ground() ? k_.Rp : Mat3(e1.node->R * k_.Rp);
        q.Ra = e1.ground() ? k_.Rr[0] : Mat3(e1.node->R * k_.Rr[0]);
        q.Rb = n2.R * k_.Rr[1];
        q.x1 = e1.ground() ? Vec3(Vec3::Zero()) : e1.node->x;
        q.w1 = e1.omega();
        q.w2 = n2.w;
        q.p1 = e1.point();
        q.p2 = k_.e[1].point();
        q.b1 = q.p2 - q.x1;
        q.b2 = k_.e[1].arm();
        q.s = n2.xdot + q.w2.cross(q.b2) - (e1.ground() ? Vec3(Vec3::Zero()) : e1.node->xdot) -
              q.w1.cross(q.b1);
        q.d = k_.pos_drive.value(t);
        q.theta = k_.rot_drive.value(t);
        if (k_.axial) q.theta[2] += k_.axial->value(t);
        Vec3 th0 = Vec3::Zero();
        for (int i = 0; i < 3; ++i)
            if (k_.rot[i] == Level::position) th0[i] = q.theta[i];
        q.R0 = rotation_vector_to_matrix(th0);
        q.phi = matrix_to_rotation_vector(q.R0.transpose() * q.Ra.transpose() * q.Rb);
        q.A = rotvec::Gamma_inverse(q.phi) * q.R0.transpose() * q.Ra.transpose();
        return q;
    }

    // The multipliers by kind, in the frames of their rows.
    void split(const double* lam, Vec3& Fl, Vec3& Mr, Vec3& Mw) const {
        for (std::size_t k = 0; k < rows_.size(); ++k) {
            const Row& w = rows_[k];
            (!w.rotation ? Fl : w.velocity ? Mw : Mr)[w.comp] = lam[k];
        }
    }
    // Force and couple applied to end 1 (global).
    void wrench(const Kin& q, const double* lam, Vec3& F, Vec3& M) const {
        Vec3 Fl = Vec3::Zero(), Mr = Vec3::Zero(), Mw = Vec3::Zero();
        split(lam, Fl, Mr, Mw);
        F = q.Rp * Fl;
        M = q.A.transpose() * Mr + q.Ra * Mw;
    }

    Config k_;
    std::vector<Row> rows_;
    bool has_velocity_rows_ = false;
    el::JointBlocks b_;
    Vec3 F_ = Vec3::Zero(), M_ = Vec3::Zero();
    double time_ = 0.0;
};

// --- factories

// A node's end (node and offset); with rotation constraints the node needs rotations, refused at
// its field.
End node_end(BuildContext& ctx, const EntityDesc& d, const cards::EndSpec& s, bool rotations) {
    End e;
    e.node = &ctx.struct_node(s.node, d);
    if (rotations && !e.node->has_rotation())
        throw InputError(s.node_loc, "orientation constraints need structural nodes with rotations",
                         "use static or dynamic (not displacement) nodes");
    e.f = s.offset;
    return e;
}

TplDrive<3> tpl_drive(const std::shared_ptr<const TplDriveSpec>& s, BuildContext& ctx) {
    if (!s) return {};
    return TplDrive<3>::make(*s, ctx.drive_env());
}

std::unique_ptr<Element> finish(const EntityDesc& d, BuildContext& ctx, Config& k) {
    auto j = std::make_unique<TotalJoint>(d, std::move(k));
    j->set_clock(ctx.drive_env().clock);
    return j;
}

// The five kinds of the TotalSpec: the pins have the ground as end 1, as in MBDyn (the reaction
// reported is the one on the ground). Drive displacement: p2 - p1 = R1 d(t) (node 1 frame); pin:
// p - x = d(t).
std::unique_ptr<Element> make_total(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<cards::TotalSpec>();
    Config k;
    bool rot = false;
    for (Level l : s.rot) rot = rot || l != Level::inactive;
    if (s.pin())
        k.e[0].f = s.end[0].offset;
    else
        k.e[0] = node_end(ctx, d, s.end[0], rot);
    k.e[1] = node_end(ctx, d, s.end[1], rot);
    k.Rp = s.position_frame[0];
    k.Rr[0] = s.end[0].R;
    k.Rr[1] = s.end[1].R;
    k.pos = s.pos;
    k.rot = s.rot;
    k.pos_drive = tpl_drive(s.pos_drive[0], ctx);
    k.rot_drive = tpl_drive(s.rot_drive[0], ctx);
    switch (s.form) {
        case cards::TotalForm::drive_hinge:
            k.style = Style::drive_hinge;
            break;
        case cards::TotalForm::drive_displacement:
        case cards::TotalForm::drive_displacement_pin:
            k.style = Style::drive_displacement;
            break;
        default:
            k.style = Style::total;
            break;
    }
    return finish(d, ctx, k);
}

// A revolute hinge's two ends (offsets and hinge orientations in the node frames) and the
// imposed relative angular velocity about axis 3.
struct AxialRotationSpec final : ElementSpec {
    cards::EndSpec end[2];
    long own_unknowns() const override { return 6; }
    std::shared_ptr<const DriveSpec> omega;
    std::string orientation_description;  // "" when not given
    void describe(Props& p) const override {
        cards::describe_end(p, end[0], "1", true, true);
        cards::describe_end(p, end[1], "2", true, true);
        p.set("omega", omega);
        if (!orientation_description.empty())
            p.set("orientation description", orientation_description);
    }
};

std::string axial_rotation_log_line(const EntityDesc& d) {
    return cards::log_two_ends("axialrotation", d.label, d.spec_as<AxialRotationSpec>().end, true,
                               true);
}

void read_axial_rotation(Reader& r, EntityDesc& e) {
    cards::EndOptions opt;
    auto end1 = cards::read_end1(r, "axial rotation", opt);
    auto end2 = cards::read_end2(r, end1, "axial rotation", opt);
    auto s = std::make_shared<AxialRotationSpec>();
    s->end[0] = cards::end_spec(end1);
    s->end[1] = cards::end_spec(end2);
    s->omega = r.drive("imposed relative angular velocity");
    s->orientation_description = cards::read_orientation_description(r);
    cards::read_optional_output(r, e);
    cards::reject_friction(r);
    e.spec = std::move(s);
}

// Point coincidence in the hinge frame of node 1, axes 3 aligned (rotation rows 1 and 2) and the
// relative angular velocity about axis 3 imposed.
std::unique_ptr<Element> make_axial_rotation(const EntityDesc& d, BuildContext& ctx) {
    const auto& s = d.spec_as<AxialRotationSpec>();
    Config k;
    k.e[0] = node_end(ctx, d, s.end[0], true);
    k.e[1] = node_end(ctx, d, s.end[1], true);
    k.Rp = k.Rr[0] = s.end[0].R;
    k.Rr[1] = s.end[1].R;
    k.pos.fill(Level::position);
    k.rot = {Level::position, Level::position, Level::velocity};
    k.axial = make_drive(*s.omega, ctx.drive_env());
    k.od = el::joint_od(s.orientation_description, ctx.model().control.orientation());
    k.style = Style::axial_rotation;
    return finish(d, ctx, k);
}

// The rotation's rate is the drive; a tree running from node 2 to node 1 turns it the other way.
tree::EdgePart axial_rotation_edge(const EntityDesc& d, const tree::Context&) {
    const auto& s = d.spec_as<AxialRotationSpec>();
    tree::Edge e = cards::revolute_tree_edge(cards::tree_end(s.end[0], "node1"),
                                             cards::tree_end(s.end[1], "node2"));
    e.driven = true;
    e.grow = [omega = s.omega](tree::Growth& g, const tree::Context& c) {
        tree::Step st = tree::rotation(2, tree::angle_about_z(g.Rrel));
        st.velocity_drive = make_drive(*omega, c.env);
        st.sign = g.sign;
        g.steps.push_back(st);
    };
    return e;
}

// The relative-coordinate path of the TotalSpec kinds (total_tree_edge.cpp).
tree::EdgePart total_edge(const EntityDesc& d, const tree::Context& c) {
    return cards::total_tree_edge(d, c);
}

}  // namespace

MBS_REGISTER_ELEMENT_KIND("joint", "total joint",
                          {.read = read_total_joint,
                           .make = make_total,
                           .reduced = {.edge = total_edge}});
MBS_REGISTER_ELEMENT_KIND("joint", "total pin joint",
                          {.read = read_total_pin_joint,
                           .make = make_total,
                           .reduced = {.edge = total_edge}});
MBS_REGISTER_ELEMENT_KIND("joint", "imposed displacement",
                          {.read = read_total_alias<cards::read_imposed_displacement_card>,
                           .make = make_total,
                           .reduced = {.edge = total_edge}});
MBS_REGISTER_ELEMENT_KIND("joint", "imposed displacement pin",
                          {.read = read_total_alias<cards::read_imposed_displacement_pin_card>,
                           .make = make_total,
                           .reduced = {.edge = total_edge}});
MBS_REGISTER_ELEMENT_KIND("joint", "imposed orientation",
                          {.read = read_total_alias<cards::read_imposed_orientation_card>,
                           .make = make_total,
                           .reduced = {.edge = total_edge}});
MBS_REGISTER_ELEMENT_KIND("joint", "drive hinge",
                          {.read = read_drive_hinge,
                           .make = make_total,
                           .reduced = {.edge = total_edge}});
MBS_REGISTER_ELEMENT_KIND("joint", "drive displacement",
                          {.read = read_drive_displacement,
                           .make = make_total,
                           .reduced = {.edge = total_edge}});
MBS_REGISTER_ELEMENT_KIND("joint", "drive displacement pin",
                          {.read = read_drive_displacement_pin,
                           .make = make_total,
                           .reduced = {.edge = total_edge}});
MBS_REGISTER_ELEMENT_KIND("joint", "axial rotation",
                          {.read = read_axial_rotation,
                           .make = make_axial_rotation,
                           .reduced = {.edge = axial_rotation_edge}});

}  // namespace mbs
