/* Test module with an algebraic own unknown (a Lagrange multiplier): a structural node kept on
 * the plane n.x = d.
 *   user defined: L, plane constraint, NODE, normal, <Vec3>, offset, d;
 * Own equation (algebraic, position level): r = n.x - d, with multiplier lambda; force on the
 * node F = -lambda n (so lambda is the reaction along -n). Partials: dr/dx = n^T;
 * dF/dlambda = -n. Output (.usr): lambda and the constraint violation n.x - d. */
#include <math.h>
#include <mbsolve/mbsolve_module.h>
#include <stdlib.h>

typedef struct {
    int node;
    double n[3], d;
} plane;

static void* read_plane(const mbs_host* h, mbs_parser* p, mbs_element_decl* d) {
    plane a;
    long label;
    int k, algebraic = 0;
    static const char* const kw_n[] = {"normal"};
    static const char* const kw_d[] = {"offset"};
    if (h->parse->struct_node(p, "node", &a.node, &label)) return NULL;
    if (h->parse->keyword(p, kw_n, 1, "'normal'", &k) || h->parse->vec3(p, "plane normal", a.n))
        return NULL;
    double len = sqrt(a.n[0] * a.n[0] + a.n[1] * a.n[1] + a.n[2] * a.n[2]);
    if (!(len > 0)) return h->parse->error(p, "the normal must not be zero"), NULL;
    for (k = 0; k < 3; ++k) a.n[k] /= len;
    if (h->parse->keyword(p, kw_d, 1, "'offset'", &k) || h->parse->real(p, "plane offset", &a.d))
        return NULL;
    h->decl->own_unknowns(d, 1, &algebraic);
    h->decl->couple(d, MBS_OWN, a.node);
    h->decl->couple(d, a.node, MBS_OWN);
    plane* out = (plane*)malloc(sizeof *out);
    if (out) *out = a;
    return out;
}

static void residual(void* inst, const mbs_element_state* s, double* r) {
    const plane* a = (const plane*)inst;
    const double* x = s->nodes[a->node].x;
    r[0] = a->n[0] * x[0] + a->n[1] * x[1] + a->n[2] * x[2] - a->d;
    for (int c = 0; c < 3; ++c) r[1 + 6 * a->node + c] = -s->q[0] * a->n[c];
}

static void jacobian(void* inst, const mbs_element_state* s, const mbs_host* h, mbs_jacobian* J) {
    const plane* a = (const plane*)inst;
    double col[6] = {-a->n[0], -a->n[1], -a->n[2], 0, 0, 0};
    (void)s;
    h->jacobian->add(J, MBS_OWN, a->node, MBS_D_X, a->n);
    h->jacobian->add(J, a->node, MBS_OWN, MBS_D_Q, col);
}

static int output(void* inst, const mbs_element_state* s, double* v, int max) {
    const plane* a = (const plane*)inst;
    const double* x = s->nodes[a->node].x;
    if (max < 2) return 0;
    v[0] = s->q[0];
    v[1] = a->n[0] * x[0] + a->n[1] * x[1] + a->n[2] * x[2] - a->d;
    return 2;
}

static const mbs_element_type plane_type = {"plane constraint", read_plane, free, NULL,  NULL,
                                            residual,           jacobian,   NULL, output};

MBS_MODULE_ENTRY(host, args) {
    (void)args;
    return host->register_element(host, &plane_type);
}
