/* Test module built for another ABI version: mbsolve must refuse it before calling init. */
#include <mbsolve/mbsolve_module.h>

MBS_MODULE_EXPORT unsigned mbs_module_abi_version(void) { return MBS_MODULE_ABI_VERSION + 41u; }

MBS_MODULE_EXPORT int mbs_module_init(const mbs_host* host, mbs_parser* args) {
    (void)args;
    host->log(host, "wrong_abi: init must not be called");
    return MBS_ERROR;
}
