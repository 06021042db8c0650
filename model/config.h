/* config.h: run parameters as one struct, generated from params.def, with
 * defaults, look-up by name and checked assignment from strings. The CLI's
 * file and key=value readers and the help text are built on these calls. */
#ifndef NOC_CONFIG_H
#define NOC_CONFIG_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

#define NOC_CONFIG_STR_MAX 4352 /* a graph file's path of PATH_MAX fits a SPEC */

typedef struct noc_config {
#define INT int64_t
#define BOOL int64_t
#define DBL double
#define STR char
#define X(name, type, def, help) type name X_ARR_##type;
#define X_ARR_INT
#define X_ARR_BOOL
#define X_ARR_DBL
#define X_ARR_STR [NOC_CONFIG_STR_MAX]
#include "model/params.def"
#undef X
#undef X_ARR_INT
#undef X_ARR_BOOL
#undef X_ARR_DBL
#undef X_ARR_STR
#undef INT
#undef BOOL
#undef DBL
#undef STR
} noc_config_t;

typedef enum noc_param_type { NOC_PARAM_INT, NOC_PARAM_BOOL, NOC_PARAM_DBL, NOC_PARAM_STR } noc_param_type_t;

typedef struct noc_param_info {
    const char *name;
    noc_param_type_t type;
    const char *def;  /* default, as text */
    const char *help;
} noc_param_info_t;

/* The table of all parameters, in params.def order; count in *n. */
const noc_param_info_t *noc_params(size_t *n);
/* Fill cfg with the defaults. */
void noc_config_defaults(noc_config_t *cfg);
/* Set parameter `name` from text. Returns 0, or -1 with a message in err
 * (unknown parameter, or a value that is not of the parameter's type).
 * Range checks that need several parameters happen when the simulator is
 * built (noc_sim_create). */
int noc_config_set(noc_config_t *cfg, const char *name, const char *value,
                   char *err, size_t errlen);
/* The timings programs run under (--timing, --sync): NOC_TIMING_ROUTER
 * leaves cfg as it is; NOC_TIMING_UNIT is the papers' model (router=ideal,
 * ni_ports=0: all-port PEs); NOC_TIMING_UNIT_SYNC that with sync_steps=1. */
enum { NOC_TIMING_ROUTER, NOC_TIMING_UNIT, NOC_TIMING_UNIT_SYNC };
void noc_config_timing(noc_config_t *cfg, int timing);

/* The current value of a parameter as text (for reports); -1 if unknown. */
int noc_config_get(const noc_config_t *cfg, const char *name, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
