/* Test module whose init reads its `module load:` arguments: `"failing_init", gain, <real>;`.
 * Bad arguments are reported at their file:line:col; a negative gain is refused by the module. */
#include <mbsolve/mbsolve_module.h>

MBS_MODULE_ENTRY(host, args) {
    double g = 0;
    static const char* const kw[] = {"gain"};
    int i = 0;
    if (host->parse->keyword(args, kw, 1, "'gain'", &i) || host->parse->real(args, "gain", &g))
        return MBS_ERROR;
    if (g < 0) return host->parse->error(args, "failing_init: the gain must not be negative");
    return MBS_OK;
}
