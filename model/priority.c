/* priority.c: the priority parameters read and checked (priority.h). */
#include "model/priority.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[NOC_PRI_COUNT] = { "none",         "class",        "age",       "network_age",
                                                  "local_age",    "queue_length", "hop_count", "sequence" };

const char *noc_priority_name(int kind)
{
    return kind >= 0 && kind < NOC_PRI_COUNT ? names[kind] : "?";
}

/* class_priority: integers, comma-separated, one a class. */
static int class_list(const char *list, int classes, int64_t *out, char *err, size_t errlen)
{
    int n = 0;
    const char *p = list;
    while (*p) {
        char *end;
        errno = 0;
        long long v = strtoll(p, &end, 10);
        if (end == p || errno || (*end && *end != ',') || v < INT32_MIN || v > INT32_MAX) {
            snprintf(err, errlen, "parameter 'class_priority': '%s' is not a comma-separated list of integers",
                     list);
            return -1;
        }
        if (n == classes) {
            snprintf(err, errlen, "parameter 'class_priority': '%s' has more values than the %d classes", list,
                     classes);
            return -1;
        }
        out[n++] = v;
        p = *end ? end + 1 : end;
    }
    for (int c = n; c < NOC_PRI_CLASSES; c++)
        out[c] = n ? out[n - 1] : 0;
    return 0;
}

int noc_priority_parse(const noc_config_t *c, int *kind, int64_t cls_pri[NOC_PRI_CLASSES], char *err, size_t errlen)
{
    memset(cls_pri, 0, NOC_PRI_CLASSES * sizeof *cls_pri);
    *kind = -1;
    for (int k = 0; k < NOC_PRI_COUNT; k++)
        if (strcmp(c->priority, names[k]) == 0)
            *kind = k;
    if (*kind < 0) {
        snprintf(err, errlen, "parameter 'priority': '%s' is not a priority (none, class, age, network_age, local_age, "
                 "queue_length, hop_count, sequence)", c->priority);
        return -1;
    }
    if (*kind == NOC_PRI_SEQUENCE && (c->classes > 1 || c->use_read_write)) {
        snprintf(err, errlen, "parameter 'priority': sequence with %s is not modelled (BookSim2 numbers a node's "
                 "packets as it makes them, one class at a time when the last has left, replies included)",
                 c->classes > 1 ? "classes > 1" : "use_read_write");
        return -1;
    }
    if (c->class_priority[0] && *kind != NOC_PRI_CLASS) {
        snprintf(err, errlen, "parameter 'class_priority': ranks the classes with priority = class only (here "
                 "priority = %s, where it has no effect); leave it out or give priority = class", c->priority);
        return -1;
    }
    int classes = c->classes > 1 ? (int)c->classes : 1;
    return class_list(c->class_priority, classes > NOC_PRI_CLASSES ? NOC_PRI_CLASSES : classes, cls_pri, err,
                      errlen);
}
