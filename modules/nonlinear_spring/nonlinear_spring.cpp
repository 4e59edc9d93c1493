// Example module: a nonlinear (cubic) spring-damper constitutive law, 1D, 3D and 6D.
//
//   nonlinear spring damper, k, k3 [, damping, c]
//
// Each component j of the strain acts independently (isotropic, diagonal):
//   F_j = k eps_j + k3 eps_j^3 + c epsdot_j
//   K   = diag(k + 3 k3 eps_j^2),   C = diag(c)
// Elastic energy per component: k eps^2/2 + k3 eps^4/4 (hardening for k3 > 0). The law is
// elastic, or viscoelastic when c != 0. Module arguments: none.
#include <mbsolve/mbsolve_module.h>

#include <new>

namespace {

struct Law {
    double k = 0, k3 = 0, c = 0;
};

void* read_law(const mbs_host* h, mbs_parser* p, int dim, int* kind) {
    (void)dim;
    const mbs_parse_api* P = h->parse;
    Law l;
    if (P->real(p, "linear stiffness k", &l.k) || P->real(p, "cubic stiffness k3", &l.k3))
        return nullptr;
    if (P->accept(p, "damping")) {
        if (P->real(p, "damping c", &l.c)) return nullptr;
        if (l.c < 0) return P->error(p, "the damping must not be negative"), nullptr;
    }
    *kind = MBS_LAW_ELASTIC | (l.c != 0 ? MBS_LAW_VISCOUS : 0);
    return new (std::nothrow) Law(l);
}

void free_law(void* data) { delete static_cast<Law*>(data); }

void eval(const void* data, int dim, const double* eps, const double* epsdot, double, double* F,
          double* K, double* C) {
    const Law& l = *static_cast<const Law*>(data);
    for (int j = 0; j < dim; ++j) {
        const double e = eps[j];
        F[j] = l.k * e + l.k3 * e * e * e + l.c * epsdot[j];
        for (int m = 0; m < dim; ++m) K[dim * j + m] = C[dim * j + m] = 0.0;
        K[dim * j + j] = l.k + 3 * l.k3 * e * e;
        C[dim * j + j] = l.c;
    }
}

const mbs_law_type law_type = {"nonlinear spring damper", MBS_LAW_1D | MBS_LAW_3D | MBS_LAW_6D,
                               read_law, free_law, eval};

}  // namespace

MBS_MODULE_ENTRY(host, args) {
    (void)args;
    return host->register_law(host, &law_type);
}
