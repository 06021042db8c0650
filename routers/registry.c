/* registry.c: the static name table of router families. */
#include "routers/router.h"
#include <string.h>

#include "routers/families.h"

static const noc_router_ops_t *const routers[] = {
    &noc_router_vc,
    &noc_router_ideal,
    &noc_router_rtl,
};

const noc_router_ops_t *noc_router_find(const char *name)
{
    for (size_t i = 0; i < sizeof routers / sizeof routers[0]; i++)
        if (strcmp(routers[i]->name, name) == 0)
            return routers[i];
    return NULL;
}

const char *noc_router_list(void)
{
    return "vc ideal rtl";
}
