// MBDyn's `eigenanalysis` card of the initial value block (docs/deck-language.md 2.1):
//   eigenanalysis: TIME [, OPTION ...] ;
//   eigenanalysis: list, N, T1, ..., TN [, OPTION ...] ;
// Options: parameter, DCOEF2; output eigenvectors; output geometry; results output precision, P;
// lower frequency limit, F; upper frequency limit, F; use lapack; suffix width, {W | compute}.
// The dense solver is the only one: `use arpack`, `use jdqz`, the matrix outputs, `balance` and
// `suffix format` are refused at their keyword.
#include <cmath>
#include <limits>

#include "parser/builder_impl.hpp"

namespace mbs::parser {
namespace {

// MBDyn's matrix-output options (refused), or null.
const char* matrix_option(const DeckReader& r) {
    for (const char* m : {"output matrices", "output full matrices", "output sparse matrices",
                          "matrix output precision"})
        if (r.peek(m)) return m;
    return nullptr;
}

}  // namespace

void Builder::eigenanalysis_card(DeckReader& r) {
    EigenanalysisSettings& e = st_.model.solver.eigenanalysis;
    if (e.given())
        throw InputError(r.card_loc(), "'eigenanalysis' is given twice",
                         "give all times in one card: 'eigenanalysis: list, N, T1, ..., TN;'");
    e.loc = r.card_loc();
    if (r.accept("list")) {
        const SourceLoc at = r.loc();
        const long n = r.integer("number of eigenanalysis times");
        if (n < 1 || n > 100000)
            r.error_at(at, "the number of eigenanalysis times must be between 1 and 100000, got " +
                               std::to_string(n));
        for (long k = 0; k < n; ++k) {
            const SourceLoc tl = r.loc();
            const double t = r.real("eigenanalysis time");
            if (!e.times.empty() && t <= e.times.back())
                r.error_at(tl, "eigenanalysis times must be in strictly ascending order",
                           "time " + std::to_string(k + 1) + " is not after the one before it");
            e.times.push_back(t);
        }
    } else {
        e.times.push_back(r.real("eigenanalysis time"));
    }
    bool solver_given = false;
    while (!r.at_end()) {
        const SourceLoc at = r.loc();
        if (r.accept("parameter")) {
            e.parameter = r.positive("eigenanalysis parameter");
        } else if (r.accept("output eigenvectors")) {
            e.output_eigenvectors = true;
        } else if (r.accept("output geometry")) {
            e.output_geometry = true;
        } else if (r.accept("results output precision")) {
            const SourceLoc pl = r.loc();
            const long p = r.integer("results output precision");
            if (p < 1 || p > 17) r.error_at(pl, "results output precision must be 1 to 17");
            e.results_precision = static_cast<int>(p);
        } else if (r.accept("lower frequency limit")) {
            e.lower_frequency_Hz = r.nonnegative("lower frequency limit");
        } else if (r.accept("upper frequency limit")) {
            e.upper_frequency_Hz = r.positive("upper frequency limit");
        } else if (r.accept("use lapack")) {
            if (solver_given) r.error_at(at, "the eigenanalysis solver is given twice");
            solver_given = true;
        } else if (r.accept("suffix width")) {
            if (r.accept("compute")) {
                e.suffix_width = -1;
            } else {
                const SourceLoc wl = r.loc();
                const long w = r.integer("suffix width");
                if (w < 0 || w > 9) r.error_at(wl, "suffix width must be 0 to 9 or 'compute'");
                e.suffix_width = static_cast<int>(w);
            }
        } else if (r.peek("use arpack") || r.peek("use jdqz")) {
            r.error_at(at,
                       std::string(r.peek("use arpack") ? "'use arpack'" : "'use jdqz'") +
                           " (sparse eigensolver) is not supported yet",
                       "mbsolve solves the eigenproblem densely: use 'use lapack' or no solver "
                       "option (fine up to a few thousand unknowns)");
        } else if (const char* m = matrix_option(r)) {
            r.error_at(at, std::string("'") + m + "' is not supported yet",
                       "mbsolve writes the eigenvalues and mode shapes, not the matrices");
        } else if (r.peek("balance")) {
            r.error_at(at, "'balance' is not supported yet",
                       "the dense solver works on the constraint-reduced pencil without balancing");
        } else if (r.peek("suffix format")) {
            r.error_at(at, "'suffix format' is not supported yet", "use 'suffix width, W'");
        } else {
            r.error_at(at, "unknown eigenanalysis option",
                       "options: parameter, output eigenvectors, output geometry, results output "
                       "precision, lower frequency limit, upper frequency limit, use lapack, "
                       "suffix width");
        }
    }
    if (e.upper_frequency_Hz > 0 && e.upper_frequency_Hz <= e.lower_frequency_Hz)
        throw InputError(e.loc, "the upper frequency limit is not above the lower one");
}

}  // namespace mbs::parser
