/* The mbsolve module ABI: the only interface between mbsolve and a loadable module (a shared
 * library opened by `module load: "name";` or `--module name`). Plain C: no C++ class, exception
 * or allocation crosses it, so a module may be written in C or C++ with any compiler.
 *
 * A module defines its entry with MBS_MODULE_ENTRY (which also exports the ABI version it was
 * built for; mbsolve refuses a module of another version before calling anything in it):
 *
 *     #include <mbsolve/mbsolve_module.h>
 *     MBS_MODULE_ENTRY(host, args) {
 *         static const mbs_drive_type t = {...};
 *         return host->register_drive(host, &t);
 *     }
 *
 * `args` are the remaining arguments of the `module load:` card, read with host->parse.
 * Through the host a module registers
 *   - element types:   `user defined: L, <name>, ...;`   (counted by `loadable elements:`)
 *   - drive callers:   `<name>, ...` wherever a drive caller is read
 *   - scalar functions `scalar function: "f", <name>, ...;`
 *   - 1D/3D/6D constitutive laws `<name>, ...` wherever a law is read.
 * Names are compared without blanks and case-insensitively ("DC motor" == "dcmotor").
 *
 * Reading the deck: every parse function reads the next argument of the card; on bad input it
 * records an error at that argument (file:line:col) and returns MBS_ERROR; later calls do nothing
 * and return MBS_ERROR too. A read callback then returns NULL (or a non-zero status); mbsolve
 * reports the recorded error and stops with exit status 2. mbs_parse_api.error() records a
 * module's own message at the argument read last.
 *
 * Units and frames: vectors are global unless said otherwise; 3x3 matrices are row-major.
 */
#ifndef MBSOLVE_MODULE_H
#define MBSOLVE_MODULE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Raised whenever a struct below or a function's meaning changes. */
#define MBS_MODULE_ABI_VERSION 1u

#define MBS_OK 0
#define MBS_ERROR (-1)

typedef struct mbs_host mbs_host;
typedef struct mbs_parser mbs_parser;             /* the card being read (opaque) */
typedef struct mbs_element_decl mbs_element_decl; /* what an element declares at read time */
typedef struct mbs_jacobian mbs_jacobian;         /* where an element writes its derivatives */

/* ------------------------------------------------------------------ reading the deck */
typedef struct mbs_parse_api {
    /* 1 if no argument is left before ';' */
    int (*at_end)(const mbs_parser* p);
    /* 1 and consumes the next argument if it is `keyword` (blanks and case ignored), else 0 */
    int (*accept)(mbs_parser* p, const char* keyword);
    /* one of n `choices`; *index receives its position */
    int (*keyword)(mbs_parser* p, const char* const* choices, int n, const char* what, int* index);
    int (*real)(mbs_parser* p, const char* what, double* out);
    int (*integer)(mbs_parser* p, const char* what, long* out);
    int (*boolean)(mbs_parser* p, const char* what, int* out); /* yes/no/true/false or a number */
    /* the string stays valid until the read callback returns */
    int (*string)(mbs_parser* p, const char* what, const char** out);
    int (*vec3)(mbs_parser* p, const char* what, double out[3]);
    int (*mat3x3)(mbs_parser* p, const char* what, double out[9]); /* any matrix form */
    /* an absolute orientation (`eye`, `euler123, ...`, `reference, <frame>, ...`) */
    int (*orientation)(mbs_parser* p, const char* what, double out[9]);
    /* an absolute position (`null`, Vec3, `reference, <frame>, ...`) */
    int (*position)(mbs_parser* p, const char* what, double out[3]);
    /* Elements only: a structural node label; the element connects to it. *index is the node's
     * connection index (0, 1, ... in reading order), *label its label. */
    int (*struct_node)(mbs_parser* p, const char* what, int* index, long* label);
    /* Elements only: an offset / a direction / an orientation relative to connected node
     * `index` (`reference, node`, `reference, global`, ... accepted as in built-in cards);
     * the result is in that node's frame. */
    int (*position_rel)(mbs_parser* p, int index, const char* what, double out[3]);
    int (*direction_rel)(mbs_parser* p, int index, const char* what, double out[3]);
    int (*orientation_rel)(mbs_parser* p, int index, const char* what, double out[9]);
    /* A drive caller (any type, also `reference, L`); *index numbers the drives of this card
     * (0, 1, ...), the handle to evaluate it at run time. */
    int (*drive)(mbs_parser* p, const char* what, int* index);
    /* Elements only: a constitutive law of dimension 1, 3 or 6; *index numbers the laws. */
    int (*law)(mbs_parser* p, int dim, const char* what, int* index);
    /* Records the module's own error at the argument read last; returns MBS_ERROR. */
    int (*error)(mbs_parser* p, const char* message);
    /* 1 once an error has been recorded */
    int (*failed)(const mbs_parser* p);
} mbs_parse_api;

/* ------------------------------------------------------------------ run-time services */
/* What every run-time callback gets: time, step and the drives/laws of its card. */
typedef struct mbs_run {
    double time;  /* [s] */
    double dt;    /* step size [s] */
    double dCoef; /* y = known + dCoef * y' (elements only; informational) */
    void* host;
    /* drive `index` of the card at input x (time drives: x = time) and its derivative */
    double (*drive_value)(const struct mbs_run* run, int index, double x);
    double (*drive_deriv)(const struct mbs_run* run, int index, double x);
    /* law `index` of the card (dimension dim): force F, stiffness K = dF/deps and damping
     * C = dF/depsdot (dim x dim, row-major) at strain eps and strain rate epsdot */
    void (*law)(const struct mbs_run* run, int index, int dim, const double* eps,
                const double* epsdot, double* F, double* K, double* C);
} mbs_run;

/* ------------------------------------------------------------------ drive callers */
/* A drive caller f(x) (x = time for time drives, else the input of an enclosing drive). */
typedef struct mbs_drive_type {
    const char* name;
    /* Reads the arguments after the name; returns the module's data (freed with free_data), or
     * NULL after an error. `p` may be used to read sub-drives (parse->drive). */
    void* (*read)(const mbs_host* host, mbs_parser* p);
    void (*free_data)(void* data);
    double (*value)(const void* data, const mbs_run* run, double x);
    /* df/dx; NULL: not differentiable (as some of MBDyn's drives) */
    double (*deriv)(const void* data, const mbs_run* run, double x);
} mbs_drive_type;

/* ------------------------------------------------------------------ constitutive laws */
#define MBS_LAW_ELASTIC 1
#define MBS_LAW_VISCOUS 2
#define MBS_LAW_1D 1
#define MBS_LAW_3D 2
#define MBS_LAW_6D 4
typedef struct mbs_law_type {
    const char* name;
    int dimensions; /* MBS_LAW_1D | MBS_LAW_3D | MBS_LAW_6D */
    /* Reads the arguments for a law of dimension `dim`; *kind receives MBS_LAW_ELASTIC and/or
     * MBS_LAW_VISCOUS (what the force depends on). NULL after an error. */
    void* (*read)(const mbs_host* host, mbs_parser* p, int dim, int* kind);
    void (*free_data)(void* data);
    /* F (dim), K = dF/deps and C = dF/depsdot (dim x dim, row-major): all overwritten. Pure
     * function of its arguments (Newton evaluates it many times per step). */
    void (*eval)(const void* data, int dim, const double* eps, const double* epsdot, double t,
                 double* F, double* K, double* C);
} mbs_law_type;

/* ------------------------------------------------------------------ elements */
/* Kinematics of a connected structural node (global frame). */
typedef struct mbs_node_state {
    double x[3]; /* position [m] */
    double R[9]; /* orientation, row-major (node frame -> global) */
    double v[3]; /* velocity [m/s] */
    double w[3]; /* angular velocity [rad/s] */
} mbs_node_state;

/* What an element callback sees. */
typedef struct mbs_element_state {
    const mbs_run* run;
    int n_own;          /* own unknowns (they start at zero) */
    const double* q;    /* their values (algebraic unknowns too) */
    const double* qdot; /* derivatives of differential unknowns (0 for algebraic ones) */
    int n_nodes;
    const mbs_node_state* nodes; /* connected nodes, in connection order */
} mbs_element_state;

/* Row and column groups of the Jacobian: MBS_OWN (own equations / unknowns) or a node's
 * connection index (0, 1, ...). Node rows are 6: force (0-2) and moment (3-5), global. */
#define MBS_OWN (-1)
/* Which unknowns a column block is taken with respect to. */
#define MBS_D_X 0     /* node position (3 columns) */
#define MBS_D_THETA 1 /* node virtual rotation: dR = skew(dtheta) R (3 columns) */
#define MBS_D_V 2     /* node velocity (3 columns) */
#define MBS_D_W 3     /* node angular velocity (3 columns) */
#define MBS_D_Q 4     /* own unknowns q (n_own columns) */
#define MBS_D_QDOT 5  /* their derivatives (n_own columns; differential unknowns only) */

typedef struct mbs_jacobian_api {
    /* Adds the partial derivatives of the rows of `row_group` with respect to `wrt` of column
     * group `col_group`: a rows x cols block, row-major (rows: n_own or 6; cols: 3 or n_own).
     * mbsolve combines them into its iteration matrix (J = dr/dy' + dCoef dr/dy, through each
     * node's rotation parametrisation), so a module never sees dCoef or rotation parameters.
     * MBS_ERROR if the block was not declared. */
    int (*add)(mbs_jacobian* J, int row_group, int col_group, int wrt, const double* block);
} mbs_jacobian_api;

typedef struct mbs_element_decl_api {
    /* n own unknowns; differential[i] != 0: unknown i is differential (its equation involves
     * qdot[i]), else algebraic. NULL: all differential. */
    int (*own_unknowns)(mbs_element_decl* d, int n, const int* differential);
    /* The Jacobian couples the rows of `row_group` with the columns of `col_group`. Without any
     * call every pair of groups is declared. */
    int (*couple)(mbs_element_decl* d, int row_group, int col_group);
} mbs_element_decl_api;

typedef struct mbs_element_type {
    const char* name;
    /* Reads the card after the type name (nodes, drives and laws through `p`) and declares
     * unknowns and couplings through `d`. Returns the element's read-only data (freed with
     * free_data) or NULL after an error. */
    void* (*read)(const mbs_host* host, mbs_parser* p, mbs_element_decl* d);
    void (*free_data)(void* data);
    /* Run-time instance (state that changes between steps); NULL: `data` is used. */
    void* (*create)(const void* data);
    void (*destroy)(void* instance);
    /* Residual: r[0 .. n_own) own equations, then 6 rows per connected node: the force and
     * moment (global) the element applies to it (added as +F, +M). `r` is zeroed by mbsolve. */
    void (*residual)(void* instance, const mbs_element_state* s, double* r);
    /* Partial derivatives of the residual through J (mbs_jacobian_api). */
    void (*jacobian)(void* instance, const mbs_element_state* s, const mbs_host* host,
                     mbs_jacobian* J);
    /* After each converged step (update of internal state); may be NULL. */
    void (*after_step)(void* instance, const mbs_element_state* s);
    /* Values written after the label on the element's line of PREFIX.usr (at most max);
     * returns how many. NULL: no output. */
    int (*output)(void* instance, const mbs_element_state* s, double* values, int max);
    /* Private data, read by drive callers (`element, L, user defined, string, "name", <func>`):
     * n_private named scalars; private_data() gives datum i (0-based) at the current iterate
     * (must not allocate). 0 / NULL: none. */
    int n_private;
    const char* const* private_names;
    double (*private_data)(void* instance, const mbs_element_state* s, int i);
    /* Initial values of the own unknowns: q (for algebraic unknowns, their value) and qdot
     * (differential unknowns only), both zero on entry. NULL: they start at zero. */
    void (*initial)(void* instance, double* q, double* qdot);
} mbs_element_type;

/* ------------------------------------------------------------------ the host */
struct mbs_host {
    unsigned abi_version; /* MBS_MODULE_ABI_VERSION of mbsolve */
    unsigned size;        /* sizeof(mbs_host) in mbsolve */
    const char* module_name;
    void* host_data;
    const mbs_parse_api* parse;
    const mbs_element_decl_api* decl;
    const mbs_jacobian_api* jacobian;
    /* Registration (during mbs_module_init): the type structs must stay valid while the
     * process runs (static storage). MBS_ERROR (with a message) if the name is taken. */
    int (*register_element)(const mbs_host* host, const mbs_element_type* type);
    int (*register_drive)(const mbs_host* host, const mbs_drive_type* type);
    int (*register_scalar_function)(const mbs_host* host, const mbs_drive_type* type);
    int (*register_law)(const mbs_host* host, const mbs_law_type* type);
    /* A message on mbsolve's log (stderr unless silenced). */
    void (*log)(const mbs_host* host, const char* message);
};

#if defined(_WIN32)
#define MBS_MODULE_EXPORT __declspec(dllexport)
#else
#define MBS_MODULE_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
#define MBS_MODULE_EXTERN_C extern "C"
#else
#define MBS_MODULE_EXTERN_C
#endif

/* The module's entry: mbs_module_abi_version() is read first, then mbs_module_init() is called
 * once per process with the host and the `module load:` card's remaining arguments. It returns
 * MBS_OK, or MBS_ERROR after recording an error (parse->error) or logging why. */
#define MBS_MODULE_ENTRY(host, args)                                                \
    MBS_MODULE_EXTERN_C MBS_MODULE_EXPORT unsigned mbs_module_abi_version(void) {   \
        return MBS_MODULE_ABI_VERSION;                                              \
    }                                                                               \
    MBS_MODULE_EXTERN_C MBS_MODULE_EXPORT int mbs_module_init(const mbs_host* host, \
                                                              mbs_parser* args)

#ifdef __cplusplus
}
#endif

#endif /* MBSOLVE_MODULE_H */
