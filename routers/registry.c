/* registry.c: the static name table of router families, and the by-name
 * entry points of the simulator (registry.h). */
#include "routers/registry.h"
#include "util/suggest.h"
#include <stdio.h>
#include <string.h>

#include "routers/families.h"

static const noc_router_ops_t *const routers[] = {
    &noc_router_vc,
    &noc_router_ideal,
    &noc_router_rtl,
};
enum { N_ROUTERS = sizeof routers / sizeof routers[0] };

const noc_router_ops_t *noc_router_find(const char *name)
{
    for (size_t i = 0; i < N_ROUTERS; i++)
        if (strcmp(routers[i]->name, name) == 0)
            return routers[i];
    return NULL;
}

const char *noc_router_list(void)
{
    static char list[128];
    if (!list[0])
        for (size_t i = 0, len = 0; i < N_ROUTERS; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? " " : "", routers[i]->name);
    return list;
}

const char *noc_router_describe(void)
{
    static char text[1024];
    if (!text[0])
        for (size_t i = 0, len = 0; i < N_ROUTERS && len < sizeof text; i++)
            len += (size_t)snprintf(text + len, sizeof text - len, "%s%s (%s)", i ? "; " : "", routers[i]->name,
                                    routers[i]->help);
    return text;
}

noc_sim_t *noc_sim_create(const noc_config_t *cfg, const noc_graph_t *g, noc_traffic_t traffic, char *err,
                          size_t errlen)
{
    const noc_router_ops_t *family = noc_router_find(cfg->router);
    noc_sim_t *s = noc_sim_create_family(cfg, family, g, traffic, err, errlen);
    if (!family && !s) {
        size_t n = strlen(err);
        if (n < errlen)
        {
            char near[32];
            if (noc_suggest_list(cfg->router, noc_router_list(), near, sizeof near)[0])
                snprintf(err + n, errlen - n, " (did you mean '%s'? known: %s)", near, noc_router_list());
            else
                snprintf(err + n, errlen - n, " (known: %s)", noc_router_list());
        }
    }
    return s;
}

uint64_t noc_sim_estimate_bytes(const noc_config_t *cfg, const noc_graph_t *g)
{
    const noc_router_ops_t *family = noc_router_find(cfg->router);
    return family ? noc_sim_estimate_bytes_family(cfg, family, g) : 0;
}

int noc_sim_check_memory(const noc_config_t *cfg, const noc_graph_t *g, char *err, size_t errlen)
{
    const noc_router_ops_t *family = noc_router_find(cfg->router);
    return family ? noc_sim_check_memory_family(cfg, family, g, err, errlen) : 0;
}

int noc_sim_check_shape(const noc_config_t *cfg, const noc_graph_t *shape, uint64_t topo_bytes, char *err,
                        size_t errlen)
{
    const noc_router_ops_t *family = noc_router_find(cfg->router);
    return family ? noc_sim_check_shape_family(cfg, family, shape, topo_bytes, err, errlen) : 0;
}
