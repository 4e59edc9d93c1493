/* Example module (plain C): a smoothed step, as a drive caller and as a scalar function.
 *
 *   smooth step, x0, x1, y0, y1          (drive caller: x is the time)
 *   scalar function: "f", smooth step, x0, x1, y0, y1;
 *
 *   f(x) = y0 + (y1 - y0) p(s),  s = (x - x0)/(x1 - x0) clamped to [0, 1],
 *   p(s) = s^3 (10 - 15 s + 6 s^2)        (quintic: p' and p'' vanish at both ends)
 *   f'(x) = (y1 - y0)/(x1 - x0) 30 s^2 (1 - s)^2
 */
#include <mbsolve/mbsolve_module.h>
#include <stdlib.h>

typedef struct {
    double x0, x1, y0, y1;
} smooth_step;

static void* read_step(const mbs_host* h, mbs_parser* p) {
    smooth_step d;
    const mbs_parse_api* P = h->parse;
    if (P->real(p, "start (x0)", &d.x0) || P->real(p, "end (x1)", &d.x1)) return NULL;
    if (!(d.x1 > d.x0)) {
        P->error(p, "smooth step: the end x1 must be greater than the start x0");
        return NULL;
    }
    if (P->real(p, "initial value (y0)", &d.y0) || P->real(p, "final value (y1)", &d.y1))
        return NULL;
    smooth_step* out = (smooth_step*)malloc(sizeof *out);
    if (out) *out = d;
    return out;
}

static double param(const smooth_step* d, double x) {
    double s = (x - d->x0) / (d->x1 - d->x0);
    return s < 0 ? 0 : s > 1 ? 1 : s;
}

static double value(const void* data, const mbs_run* run, double x) {
    const smooth_step* d = (const smooth_step*)data;
    double s = param(d, x);
    (void)run;
    return d->y0 + (d->y1 - d->y0) * s * s * s * (10 - 15 * s + 6 * s * s);
}

static double deriv(const void* data, const mbs_run* run, double x) {
    const smooth_step* d = (const smooth_step*)data;
    double s = param(d, x);
    (void)run;
    return (d->y1 - d->y0) / (d->x1 - d->x0) * 30 * s * s * (1 - s) * (1 - s);
}

static const mbs_drive_type smooth_step_type = {"smooth step", read_step, free, value, deriv};

MBS_MODULE_ENTRY(host, args) {
    (void)args;
    if (host->register_drive(host, &smooth_step_type) != MBS_OK) return MBS_ERROR;
    return host->register_scalar_function(host, &smooth_step_type);
}
