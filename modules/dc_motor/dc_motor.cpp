// Example module: a DC motor element between the two nodes of a revolute hinge.
//
//   user defined: L, dc motor, STATOR, ROTOR,
//       axis, <direction in the stator's frame>,   (the hinge axis; normalised)
//       resistance, R, inductance, Lm, torque constant, k,
//       voltage, <drive caller>                   (V(t) [V])
//       [, initial current, i0];                  ([A], default 0)
//
// State: the armature current i [A], an own differential unknown of the element:
//   Lm di/dt = V(t) - R i - k omega,     omega = a . (w_rotor - w_stator),   a = R_stator a_s
// The motor applies the torque k i a to the rotor and -k i a to the stator (no force).
//
// Residual (mbsolve's convention: own rows, then force/moment per node, as applied loads):
//   r_i       = V - R i - k a.(w2 - w1) - Lm i'
//   M_rotor   = +k i a,   M_stator = -k i a
// Partial derivatives (virtual rotation of the stator: da = -skew(a) dtheta1, so
// d(a.u)/dtheta1 = -u^T skew(a) with u = w2 - w1):
//   dr_i/di = -R,  dr_i/di' = -Lm,  dr_i/dw2 = -k a^T,  dr_i/dw1 = +k a^T,
//   dr_i/dtheta1 = +k u^T skew(a)
//   dM_rotor/di = k a,   dM_rotor/dtheta1 = -k i skew(a)   (stator rows: the opposite)
// Output (PREFIX.usr, after the label): i, omega, torque k i, V, back-emf k omega, V i.
// Private data (for drive callers): "i", "omega", "torque".
#include <mbsolve/mbsolve_module.h>

#include <cmath>
#include <initializer_list>
#include <new>

namespace {

struct Motor {
    double a_s[3];  // axis in the stator's frame (unit)
    double R, L, k;
    double i0;                   // initial current [A]
    int stator, rotor, voltage;  // node connections and drive index
};

void* read_motor(const mbs_host* h, mbs_parser* p, mbs_element_decl* d) {
    const mbs_parse_api* P = h->parse;
    Motor m{};
    long label = 0;
    if (P->struct_node(p, "stator node", &m.stator, &label) ||
        P->struct_node(p, "rotor node", &m.rotor, &label))
        return nullptr;
    int ignored = 0;
    static const char* const kw_axis[] = {"axis"};
    if (P->keyword(p, kw_axis, 1, "'axis'", &ignored) ||
        P->direction_rel(p, m.stator, "motor axis", m.a_s))
        return nullptr;
    double n = std::sqrt(m.a_s[0] * m.a_s[0] + m.a_s[1] * m.a_s[1] + m.a_s[2] * m.a_s[2]);
    if (!(n > 0)) {
        P->error(p, "the motor axis must not be zero");
        return nullptr;
    }
    for (double& c : m.a_s) c /= n;
    static const char* const kw_r[] = {"resistance"};
    static const char* const kw_l[] = {"inductance"};
    static const char* const kw_k[] = {"torque constant"};
    static const char* const kw_v[] = {"voltage"};
    if (P->keyword(p, kw_r, 1, "'resistance'", &ignored) || P->real(p, "resistance [ohm]", &m.R))
        return nullptr;
    if (!(m.R >= 0)) return P->error(p, "the resistance must not be negative"), nullptr;
    if (P->keyword(p, kw_l, 1, "'inductance'", &ignored) || P->real(p, "inductance [H]", &m.L))
        return nullptr;
    if (!(m.L > 0)) return P->error(p, "the inductance must be positive"), nullptr;
    if (P->keyword(p, kw_k, 1, "'torque constant'", &ignored) ||
        P->real(p, "torque constant [N m/A]", &m.k))
        return nullptr;
    if (P->keyword(p, kw_v, 1, "'voltage'", &ignored) || P->drive(p, "voltage", &m.voltage))
        return nullptr;
    if (P->accept(p, "initial current") && P->real(p, "initial current [A]", &m.i0)) return nullptr;
    // One differential unknown (the current); the couplings derived above.
    const mbs_element_decl_api* D = h->decl;
    D->own_unknowns(d, 1, nullptr);
    D->couple(d, MBS_OWN, MBS_OWN);
    D->couple(d, MBS_OWN, m.stator);
    D->couple(d, MBS_OWN, m.rotor);
    D->couple(d, m.stator, MBS_OWN);
    D->couple(d, m.stator, m.stator);
    D->couple(d, m.rotor, MBS_OWN);
    D->couple(d, m.rotor, m.stator);
    return new (std::nothrow) Motor(m);
}

void free_motor(void* data) { delete static_cast<Motor*>(data); }

// Global axis a = R_stator a_s and relative angular velocity u = w2 - w1.
void kinematics(const Motor& m, const mbs_element_state* s, double a[3], double u[3]) {
    const mbs_node_state& n1 = s->nodes[m.stator];
    const mbs_node_state& n2 = s->nodes[m.rotor];
    for (int i = 0; i < 3; ++i) {
        a[i] = n1.R[3 * i] * m.a_s[0] + n1.R[3 * i + 1] * m.a_s[1] + n1.R[3 * i + 2] * m.a_s[2];
        u[i] = n2.w[i] - n1.w[i];
    }
}

double dot(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

void residual(void* inst, const mbs_element_state* s, double* r) {
    const Motor& m = *static_cast<const Motor*>(inst);
    double a[3], u[3];
    kinematics(m, s, a, u);
    const double i = s->q[0], di = s->qdot[0];
    const double V = s->run->drive_value(s->run, m.voltage, s->run->time);
    r[0] = V - m.R * i - m.k * dot(a, u) - m.L * di;
    double* M1 = r + 1 + 6 * m.stator + 3;
    double* M2 = r + 1 + 6 * m.rotor + 3;
    for (int c = 0; c < 3; ++c) M2[c] += m.k * i * a[c], M1[c] -= m.k * i * a[c];
}

void jacobian(void* inst, const mbs_element_state* s, const mbs_host* h, mbs_jacobian* J) {
    const Motor& m = *static_cast<const Motor*>(inst);
    const mbs_jacobian_api* A = h->jacobian;
    double a[3], u[3];
    kinematics(m, s, a, u);
    const double i = s->q[0];
    // S = skew(a) (row-major) and uS = u^T S.
    const double S[9] = {0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0};
    double uS[3];
    for (int j = 0; j < 3; ++j) uS[j] = u[0] * S[j] + u[1] * S[3 + j] + u[2] * S[6 + j];
    const double dq = -m.R, dqd = -m.L;
    A->add(J, MBS_OWN, MBS_OWN, MBS_D_Q, &dq);
    A->add(J, MBS_OWN, MBS_OWN, MBS_D_QDOT, &dqd);
    double row[3];
    for (int c = 0; c < 3; ++c) row[c] = -m.k * a[c];
    A->add(J, MBS_OWN, m.rotor, MBS_D_W, row);
    for (int c = 0; c < 3; ++c) row[c] = m.k * a[c];
    A->add(J, MBS_OWN, m.stator, MBS_D_W, row);
    for (int c = 0; c < 3; ++c) row[c] = m.k * uS[c];
    A->add(J, MBS_OWN, m.stator, MBS_D_THETA, row);
    // Node rows: 6 x 1 (own column) and 6 x 3 (stator rotation), moment rows only.
    double col[6] = {0, 0, 0, 0, 0, 0};
    double blk[18] = {0};
    for (int sign : {+1, -1}) {
        const int node = sign > 0 ? m.rotor : m.stator;
        for (int c = 0; c < 3; ++c) col[3 + c] = sign * m.k * a[c];
        A->add(J, node, MBS_OWN, MBS_D_Q, col);
        for (int rr = 0; rr < 3; ++rr)
            for (int c = 0; c < 3; ++c) blk[3 * (3 + rr) + c] = -sign * m.k * i * S[3 * rr + c];
        A->add(J, node, m.stator, MBS_D_THETA, blk);
    }
}

int output(void* inst, const mbs_element_state* s, double* v, int max) {
    if (max < 6) return 0;
    const Motor& m = *static_cast<const Motor*>(inst);
    double a[3], u[3];
    kinematics(m, s, a, u);
    const double i = s->q[0], w = dot(a, u);
    const double V = s->run->drive_value(s->run, m.voltage, s->run->time);
    v[0] = i, v[1] = w, v[2] = m.k * i, v[3] = V, v[4] = m.k * w, v[5] = V * i;
    return 6;
}

void initial(void* inst, double* q, double*) { q[0] = static_cast<const Motor*>(inst)->i0; }

// Private data for drive callers: the current "i", the speed "omega" and the torque "torque".
double private_data(void* inst, const mbs_element_state* s, int n) {
    const Motor& m = *static_cast<const Motor*>(inst);
    double a[3], u[3];
    kinematics(m, s, a, u);
    return n == 0 ? s->q[0] : n == 1 ? dot(a, u) : m.k * s->q[0];
}
const char* const private_names[] = {"i", "omega", "torque"};

const mbs_element_type dc_motor = {"dc motor",    read_motor,   free_motor, nullptr, nullptr,
                                   residual,      jacobian,     nullptr,    output,  3,
                                   private_names, private_data, initial};

}  // namespace

MBS_MODULE_ENTRY(host, args) {
    (void)args;
    return host->register_element(host, &dc_motor);
}
