// Runtime structural node: kinematics from the unknowns, rotation history for the integrator.
#include "core/struct_node.hpp"

#include <stdexcept>

#include "core/struct_node_spec.hpp"

namespace mbs {

StructNode::StructNode(const EntityDesc& d) : desc_(&d) {
    if (d.type == "static")
        kind_ = Kind::static_rigid;
    else if (d.type == "dynamic")
        kind_ = Kind::dynamic_rigid;
    else if (d.type == "static displacement")
        kind_ = Kind::static_disp;
    else if (d.type == "dynamic displacement")
        kind_ = Kind::dynamic_disp;
    else if (d.type == "dummy")
        kind_ = Kind::dummy;
    else
        throw std::logic_error("structural node type '" + d.type + "' has no runtime");
    const auto& s = d.spec_as<StructuralNodeSpec>();
    x = s.x;
    R = s.R;
    xdot = s.v;
    w = s.w;
    Rref = R_prev = R_prev2 = R;
    w_prev = w_prev2 = w;
    accel_output = s.accelerations.value_or(false);
    orientation_description = s.orientation_description;
    output_inertia = s.output_inertia;
    assembly_position_stiffness = s.assembly_position_stiffness;
    assembly_velocity_stiffness = s.assembly_velocity_stiffness;
    if (kind_ == Kind::dummy) {
        dummy_offset = s.offset.value_or(Vec3::Zero());
        dummy_R = s.relative_orientation.value_or(Mat3::Identity());
        pivot_offset = s.pivot_offset.value_or(Vec3::Zero());
        pivot_R = s.pivot_orientation.value_or(Mat3::Identity());
    }
}

// The generic view, in the order the reader used to store the props: dummy nodes' base and
// frame data, the initial state (the offset dummy's orientation description after it, the
// others' after the orientation), then the tail items in the order first given.
void StructuralNodeSpec::describe(Props& out) const {
    if (dummy) {
        out.set("base node", base);
        out.set("dummy type", dummy_type);
        if (reference) out.set("reference node", *reference);
        if (offset) out.set("offset", *offset);
        if (relative_orientation) out.set("relative orientation", *relative_orientation);
        if (reference && !orientation_description.empty())
            out.set("orientation description", orientation_description);
        if (pivot) out.set("pivot node", *pivot);
        if (pivot_offset) out.set("pivot offset", *pivot_offset);
        if (pivot_orientation) out.set("pivot orientation", *pivot_orientation);
    }
    out.set("position", x);
    out.set("orientation", R);
    if (!dummy && !orientation_description.empty())
        out.set("orientation description", orientation_description);
    out.set("velocity", v);
    out.set("angular velocity", w);
    if (dummy && !reference && !orientation_description.empty())
        out.set("orientation description", orientation_description);
    for (Tail t : tail) switch (t) {
            case Tail::assembly:
                out.set("assembly position stiffness", *assembly_position_stiffness);
                out.set("assembly velocity stiffness", *assembly_velocity_stiffness);
                break;
            case Tail::accelerations:
                out.set("accelerations", *accelerations);
                break;
            case Tail::output_inertia:
                out.set("output inertia", *output_inertia);
                break;
        }
}

int StructNode::ndofs() const {
    switch (kind_) {
        case Kind::static_rigid:
            return 6;
        case Kind::dynamic_rigid:
            return 12;
        case Kind::static_disp:
            return 3;
        case Kind::dynamic_disp:
            return 6;
        case Kind::dummy:
            return 0;
    }
    return 0;
}

const char* StructNode::dof_name(int i, bool rotation) {
    static const char* rigid[] = {"force x",
                                  "force y",
                                  "force z",
                                  "moment x",
                                  "moment y",
                                  "moment z",
                                  "momentum x",
                                  "momentum y",
                                  "momentum z",
                                  "angular momentum x",
                                  "angular momentum y",
                                  "angular momentum z"};
    static const char* disp[] = {"force x",    "force y",    "force z",
                                 "momentum x", "momentum y", "momentum z"};
    return rotation ? rigid[i] : disp[i];
}

const char* StructNode::unknown_name(int i, bool rotation) {
    static const char* rigid[] = {"position x",         "position y",         "position z",
                                  "rotation x",         "rotation y",         "rotation z",
                                  "momentum x",         "momentum y",         "momentum z",
                                  "angular momentum x", "angular momentum y", "angular momentum z"};
    static const char* disp[] = {"position x", "position y", "position z",
                                 "momentum x", "momentum y", "momentum z"};
    return rotation ? rigid[i] : disp[i];
}

void StructNode::initialize(double* y, double* yp) {
    if (is_dummy()) return;
    double* py = y + first_dof_;
    double* pyp = yp + first_dof_;
    for (int i = 0; i < 3; ++i) {
        py[i] = x[i];
        pyp[i] = xdot[i];
    }
    if (has_rotation())
        for (int i = 0; i < 3; ++i) {
            py[3 + i] = 0.0;    // g relative to Rref = R0
            pyp[3 + i] = w[i];  // G(0) = I
        }
}

void StructNode::update(const StateView& s) {
    const double* py = s.y + first_dof_;
    const double* pyp = s.yp + first_dof_;
    x = Vec3(py[0], py[1], py[2]);
    xdot = Vec3(pyp[0], pyp[1], pyp[2]);
    int m = pos_cols();
    if (has_rotation()) {
        g = Vec3(py[3], py[4], py[5]);
        gdot = Vec3(pyp[3], pyp[4], pyp[5]);
        G = cgr_G(g);
        R = cgr_to_matrix(g) * Rref;
        w = G * gdot;
        Gd = cgr_G_times_derivative(g, gdot);
    }
    if (is_dynamic()) {
        beta = Vec3(py[m], py[m + 1], py[m + 2]);
        beta_dot = Vec3(pyp[m], pyp[m + 1], pyp[m + 2]);
        if (has_rotation()) {
            gamma = Vec3(py[m + 3], py[m + 4], py[m + 5]);
            gamma_dot = Vec3(pyp[m + 3], pyp[m + 4], pyp[m + 5]);
        }
    }
}

// offset: a point rigidly attached to the base node b, x = x_b + R_b f, R = R_b R_f.
// relative frame (MBDyn's definition): the base node b seen from the frame of the reference node
// r displaced by (f_h, R_h): with Q = R_h^T R_r^T and d = x_b - x_r,
//   x = Q d - R_h^T f_h,  R = Q R_b,  w = Q (w_b - w_r),  v = Q (v_b - v_r - w_r x d),
// i.e. the inverse of R_b = R_r R_h R, x_b = x_r + R_r (f_h + R_h x) differentiated in time
// (w is MBDyn's Q (w_b - w_r): the relative angular velocity in the relative frame).
// With a pivot node p (offset f_p, orientation R_p) that relative motion is then placed on p:
//   x <- x_p + R_p (R_hp x + f_p), R <- R_p R_hp R, w <- w_p + R_p R_hp w,
//   v <- v_p + w_p x (R_p (R_hp x + f_p)) + R_p R_hp v.
void StructNode::update_dummy(const StructNode& b) {
    if (!frame_ref) {
        Vec3 f = b.R * dummy_offset;
        x = b.x + f;
        R = b.R * dummy_R;
        w = b.w;
        xdot = b.xdot + b.w.cross(f);
        return;
    }
    const StructNode& r = *frame_ref;
    Mat3 Q = dummy_R.transpose() * r.R.transpose();
    Vec3 d = b.x - r.x;
    x = Q * d - dummy_R.transpose() * dummy_offset;
    R = Q * b.R;
    w = Q * (b.w - r.w);
    xdot = Q * (b.xdot - r.xdot - r.w.cross(d));
    if (pivot) {
        const StructNode& p = *pivot;
        Mat3 R2 = p.R * pivot_R;
        Vec3 arm = p.R * (pivot_R * x + pivot_offset);
        w = p.w + R2 * w;
        xdot = p.xdot + p.w.cross(arm) + R2 * xdot;
        R = R2 * R;
        x = p.x + arm;
    }
}

void StructNode::commit() {
    R_prev2 = R_prev;
    w_prev2 = w_prev;
    R_prev = R;
    w_prev = w;
    Rref = R;
}

void StructNode::rebase(double* y1, double* yp1, double* y2, double* yp2) const {
    if (!has_rotation()) return;
    int o = first_dof_ + 3;
    Vec3 g2 = matrix_to_cgr(R_prev2 * R_prev.transpose());
    Vec3 gp2 = cgr_G_inverse(g2) * w_prev2;
    for (int i = 0; i < 3; ++i) {
        y1[o + i] = 0.0;
        yp1[o + i] = w_prev[i];
        y2[o + i] = g2[i];
        yp2[o + i] = gp2[i];
    }
}

Mat3 cgr_G_times_derivative(const Vec3& g, const Vec3& v) {
    double c = 4.0 / (4.0 + g.squaredNorm());
    return -(0.5 * c * c) * (v + 0.5 * g.cross(v)) * g.transpose() - (0.5 * c) * skew(v);
}

Mat3 cgr_G_inverse(const Vec3& g) {
    return Mat3::Identity() - 0.5 * skew(g) + 0.25 * g * g.transpose();
}

}  // namespace mbs
