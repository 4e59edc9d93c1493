/* An out-of-tree module: a linear spring from a structural node to a fixed point.
 *   user defined: L, anchor spring, NODE, position, <absolute point>, stiffness, k;
 * Force on the node F = -k (x - p) (no moment); dF/dx = -k I. Output (.usr): |F|. */
#include <math.h>
#include <mbsolve/mbsolve_module.h>
#include <stdlib.h>

typedef struct {
    int node;
    double p[3], k;
} anchor;

static void* read_anchor(const mbs_host* h, mbs_parser* p, mbs_element_decl* d) {
    anchor a;
    long label;
    int i;
    static const char* const kw_pos[] = {"position"};
    static const char* const kw_k[] = {"stiffness"};
    if (h->parse->struct_node(p, "node", &a.node, &label)) return NULL;
    if (h->parse->keyword(p, kw_pos, 1, "'position'", &i) ||
        h->parse->position(p, "anchor point", a.p))
        return NULL;
    if (h->parse->keyword(p, kw_k, 1, "'stiffness'", &i) || h->parse->real(p, "stiffness", &a.k))
        return NULL;
    h->decl->couple(d, a.node, a.node);
    anchor* out = (anchor*)malloc(sizeof *out);
    if (out) *out = a;
    return out;
}

static void residual(void* inst, const mbs_element_state* s, double* r) {
    const anchor* a = (const anchor*)inst;
    for (int c = 0; c < 3; ++c) r[6 * a->node + c] = -a->k * (s->nodes[a->node].x[c] - a->p[c]);
}

static void jacobian(void* inst, const mbs_element_state* s, const mbs_host* h, mbs_jacobian* J) {
    const anchor* a = (const anchor*)inst;
    double b[18] = {0};
    (void)s;
    for (int c = 0; c < 3; ++c) b[3 * c + c] = -a->k;
    h->jacobian->add(J, a->node, a->node, MBS_D_X, b);
}

static int output(void* inst, const mbs_element_state* s, double* v, int max) {
    const anchor* a = (const anchor*)inst;
    double f2 = 0;
    for (int c = 0; c < 3; ++c) {
        double f = a->k * (s->nodes[a->node].x[c] - a->p[c]);
        f2 += f * f;
    }
    if (max < 1) return 0;
    v[0] = sqrt(f2);
    return 1;
}

static const mbs_element_type anchor_type = {"anchor spring", read_anchor, free, NULL,  NULL,
                                             residual,        jacobian,    NULL, output};

MBS_MODULE_ENTRY(host, args) {
    (void)args;
    return host->register_element(host, &anchor_type);
}
