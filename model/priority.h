/* priority.h: message priorities (BookSim2's `priority` and
 * `class_priority`): what ranks a packet's flits where they contend, in
 * the network interface's choice among its classes and in the vc router's
 * VC and switch allocators (the higher first, round-robin among equals;
 * docs/router.md, Priorities). */
#ifndef NOC_PRIORITY_H
#define NOC_PRIORITY_H
#include <stddef.h>
#include <stdint.h>
#include "model/config.h"

enum noc_priority {
    NOC_PRI_NONE,         /* every flit ranks 0 */
    NOC_PRI_CLASS,        /* its class's class_priority */
    NOC_PRI_AGE,          /* the older packet (created first) */
    NOC_PRI_NETWORK_AGE,  /* the flit sent into the network first */
    NOC_PRI_LOCAL_AGE,    /* in a router: the flit that reached it first (0 at the NI) */
    NOC_PRI_QUEUE_LENGTH, /* in a router: the VC holding more flits (0 at the NI) */
    NOC_PRI_HOP_COUNT,    /* in a router: the flit that crossed more links (0 at the NI) */
    NOC_PRI_SEQUENCE,     /* the packet of the lower number at its source (one class) */
    NOC_PRI_COUNT
};

#define NOC_PRI_CLASSES 8

/* The configuration's priority kind (enum noc_priority) and, with
 * priority = class, each class's rank from class_priority (a list shorter
 * than classes repeats its last value; empty: 0 for all). 0, or -1 with a
 * message in err for a kind that is unknown or not modelled, or a
 * class_priority that is malformed or given without priority = class. */
int noc_priority_parse(const noc_config_t *c, int *kind, int64_t cls_pri[NOC_PRI_CLASSES], char *err, size_t errlen);

const char *noc_priority_name(int kind);
#endif
