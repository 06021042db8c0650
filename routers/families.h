/* families.h: the router families the registry knows. */
#ifndef NOC_FAMILIES_H
#define NOC_FAMILIES_H
#include "model/router_if.h"
extern const noc_router_ops_t noc_router_vc;
extern const noc_router_ops_t noc_router_ideal;
extern const noc_router_ops_t noc_router_rtl;
#endif
