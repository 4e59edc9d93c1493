/* Test module built for another ABI version: the ordinary entry macro compiled with the version
 * a future (or past) header would define. mbsolve must refuse it before calling init. */
#include <mbsolve/mbsolve_module.h>

#undef MBS_MODULE_ABI_VERSION
#define MBS_MODULE_ABI_VERSION 42u

MBS_MODULE_ENTRY(host, args) {
    (void)args;
    host->log(host, "wrong_abi: init must not be called");
    return MBS_ERROR;
}
