/* Test module with the ABI version but without mbs_module_init. */
#include <mbsolve/mbsolve_module.h>

MBS_MODULE_EXPORT unsigned mbs_module_abi_version(void) { return MBS_MODULE_ABI_VERSION; }
