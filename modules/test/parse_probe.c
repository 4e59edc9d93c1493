/* Test module exercising the whole parse API and the element's law and drive services.
 *
 * Module arguments (all required, logged back so a test can compare them):
 *   module load: "parse_probe", <integer>, <bool>, <string>, {alpha|beta}, <Vec3>, <Mat3x3>,
 *                <orientation>, <position>;
 * Element `law spring` (a 3D constitutive law between a node and a fixed point, scaled by a
 * drive):
 *   user defined: L, law spring, NODE, offset, <position rel. NODE>, frame, <orientation rel.
 *       NODE>, anchor, <absolute position>, <3D law>, gain, <drive>;
 *   eps = x - p,  epsdot = v,  F = -s(t) law(eps, epsdot)  on the node (no moment);
 *   dF/dx = -s K,  dF/dv = -s C.   (The offset and frame are read and logged, not used.)
 * Output (.usr): eps (3), F (3). Private datum "s": the scale. */
#include <mbsolve/mbsolve_module.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int node, law, scale;
    double p[3];
} spring;

static void log_vec(const mbs_host* h, const char* name, const double* v, int n) {
    char buf[512];
    int k = snprintf(buf, sizeof buf, "probe %s:", name);
    for (int i = 0; i < n && k < (int)sizeof buf; ++i)
        k += snprintf(buf + k, sizeof buf - k, " %.17g", v[i]);
    h->log(h, buf);
}

static void* read_spring(const mbs_host* h, mbs_parser* p, mbs_element_decl* d) {
    const mbs_parse_api* P = h->parse;
    spring s;
    long label;
    double off[3], R[9];
    if (P->struct_node(p, "node", &s.node, &label)) return NULL;
    if (!P->accept(p, "offset")) return P->error(p, "expected 'offset'"), NULL;
    if (P->position_rel(p, s.node, "offset", off)) return NULL;
    if (!P->accept(p, "frame")) return P->error(p, "expected 'frame'"), NULL;
    if (P->orientation_rel(p, s.node, "frame", R)) return NULL;
    if (!P->accept(p, "anchor")) return P->error(p, "expected 'anchor'"), NULL;
    if (P->position(p, "anchor", s.p) || P->law(p, 3, "spring law", &s.law)) return NULL;
    if (!P->accept(p, "gain")) return P->error(p, "expected 'gain'"), NULL;
    if (P->drive(p, "scale", &s.scale)) return NULL;
    log_vec(h, "offset", off, 3);
    log_vec(h, "frame", R, 9);
    h->decl->couple(d, s.node, s.node);
    spring* out = (spring*)malloc(sizeof *out);
    if (out) *out = s;
    return out;
}

static void eval(const spring* s, const mbs_element_state* st, double F[3], double K[9],
                 double C[9], double* scale) {
    const mbs_node_state* n = &st->nodes[s->node];
    double eps[3] = {n->x[0] - s->p[0], n->x[1] - s->p[1], n->x[2] - s->p[2]};
    st->run->law(st->run, s->law, 3, eps, n->v, F, K, C);
    *scale = st->run->drive_value(st->run, s->scale, st->run->time);
}

static void residual(void* inst, const mbs_element_state* st, double* r) {
    const spring* s = (const spring*)inst;
    double F[3], K[9], C[9], a;
    eval(s, st, F, K, C, &a);
    for (int c = 0; c < 3; ++c) r[6 * s->node + c] = -a * F[c];
}

static void jacobian(void* inst, const mbs_element_state* st, const mbs_host* h, mbs_jacobian* J) {
    const spring* s = (const spring*)inst;
    double F[3], K[9], C[9], a, bx[18] = {0}, bv[18] = {0};
    eval(s, st, F, K, C, &a);
    for (int i = 0; i < 9; ++i) bx[i] = -a * K[i], bv[i] = -a * C[i];
    h->jacobian->add(J, s->node, s->node, MBS_D_X, bx);
    h->jacobian->add(J, s->node, s->node, MBS_D_V, bv);
}

static int output(void* inst, const mbs_element_state* st, double* v, int max) {
    const spring* s = (const spring*)inst;
    double F[3], K[9], C[9], a;
    if (max < 6) return 0;
    eval(s, st, F, K, C, &a);
    for (int c = 0; c < 3; ++c) v[c] = st->nodes[s->node].x[c] - s->p[c], v[3 + c] = -a * F[c];
    return 6;
}

static double private_data(void* inst, const mbs_element_state* st, int i) {
    const spring* s = (const spring*)inst;
    (void)i;
    return st->run->drive_value(st->run, s->scale, st->run->time);
}
static const char* const names[] = {"s"};

static const mbs_element_type spring_type = {"law spring", read_spring, free,     NULL,
                                             NULL,         residual,    jacobian, NULL,
                                             output,       1,           names,    private_data};

MBS_MODULE_ENTRY(host, args) {
    const mbs_parse_api* P = host->parse;
    long n;
    int b, k;
    const char* s;
    double v[3], m[9], R[9], x[3];
    static const char* const choices[] = {"alpha", "beta"};
    char buf[256];
    if (P->integer(args, "integer", &n) || P->boolean(args, "bool", &b) ||
        P->string(args, "string", &s) || P->keyword(args, choices, 2, "choice", &k) ||
        P->vec3(args, "vec3", v) || P->mat3x3(args, "mat3x3", m) ||
        P->orientation(args, "orientation", R) || P->position(args, "position", x))
        return MBS_ERROR;
    snprintf(buf, sizeof buf, "probe integer %ld bool %d string %s keyword %d", n, b, s, k);
    host->log(host, buf);
    log_vec(host, "vec3", v, 3);
    log_vec(host, "mat3x3", m, 9);
    log_vec(host, "orientation", R, 9);
    log_vec(host, "position", x, 3);
    return host->register_element(host, &spring_type);
}
