/* fabric_area.h: a fabric's router area (cli/fabric_area.c): one router
 * core rtl/noc_vc_router.sv per node with degree + 1 ports, synthesized (or
 * read from the cache) once per port count, summed over the fabric; what
 * `noctua topo --area` and `noctua explore --area` share. Internal to cli/. */
#ifndef NOC_CLI_FABRIC_AREA_H
#define NOC_CLI_FABRIC_AREA_H
#include <stddef.h>
#include "routers/rtl/area.h"
#include "topologies/topo.h"

/* The core parameters for fabric t: those given, V and N_CLASS from the
 * fabric's VC classes when not given (v_set, c_set 0): V its classes, at
 * least 2 (as num_vcs=0), N_CLASS its classes, at most V. */
void noc_cli_area_params(const noc_topo_t *t, const noc_area_params_t *given, int v_set, int c_set,
                         noc_area_params_t *p);
/* Group t's nodes by port count and get each group's core with fa->p into
 * fa (fa->g allocated: the caller frees it). who: the command, for a
 * warning. Returns an exit status; a message in err when not OK. */
int noc_cli_area_compute(const noc_topo_t *t, noc_fabric_area_t *fa, const char *who, char *err, size_t errlen);

#endif
