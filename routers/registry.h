/* registry.h: the router families by name (registry.c), and the
 * simulator's entry points that take a family by name (cfg->router, as
 * the command line and config files give it): they find the family and
 * hand it to the kernel (model/sim.h's *_family functions), which knows no
 * family by name. */
#ifndef NOC_REGISTRY_H
#define NOC_REGISTRY_H
#include <stddef.h>
#include <stdint.h>
#include "model/config.h"
#include "model/sim.h"
#include "model/graph.h"
#ifdef __cplusplus
extern "C" {
#endif

struct noc_router_ops;

/* The family named name (vc, ideal, rtl), NULL for an unknown name. */
const struct noc_router_ops *noc_router_find(const char *name);
/* The families' names, space-separated, for help texts (from the table). */
const char *noc_router_list(void);
/* Each family with its help, "vc (...); ideal (...); rtl (...)", for the
 * router parameter's help (from the table). */
const char *noc_router_describe(void);

/* noc_sim_create_family and the checks of model/sim.h (on a fabric's graph:
 * noc_topo_graph of a topology) for the family named
 * cfg->router; an unknown name is refused with the known ones
 * (noc_sim_create) or passes the checks (which then leave it to
 * noc_sim_create). */
noc_sim_t *noc_sim_create(const noc_config_t *cfg, const noc_graph_t *g, noc_traffic_t traffic, char *err,
                          size_t errlen);
uint64_t noc_sim_estimate_bytes(const noc_config_t *cfg, const noc_graph_t *g);
int noc_sim_check_memory(const noc_config_t *cfg, const noc_graph_t *g, char *err, size_t errlen);
int noc_sim_check_shape(const noc_config_t *cfg, const noc_graph_t *shape, uint64_t topo_bytes, char *err,
                        size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
