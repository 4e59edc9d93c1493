/* A shared library that is not an mbsolve module (no mbs_module_abi_version). */
int not_a_module_answer(void);
int not_a_module_answer(void) { return 42; }
