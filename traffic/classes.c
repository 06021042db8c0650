/* classes.c: BookSim2's traffic classes: a synthetic source per class and
 * terminal (traffic/classes.h), each class set up from a copy of the run's
 * parameters with its own values in place. */
#include "traffic/classes.h"
#include "util/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int noc_class_list(const char *key, const char *list, const char *dflt, int classes, char (*items)[256],
                   char *err, size_t errlen)
{
    int n = 0;
    if (!list[0]) {
        for (int c = 0; c < classes; c++)
            snprintf(items[c], 256, "%s", dflt);
        return 0;
    }
    for (const char *a = list;; n++) {
        const char *b = a;
        for (int depth = 0; *b && (depth > 0 || *b != ','); b++)
            depth += (*b == '(' || *b == '{') - (*b == ')' || *b == '}');
        while (*a == ' ')
            a++;
        size_t len = (size_t)(b - a);
        while (len > 0 && a[len - 1] == ' ')
            len--;
        if (n >= classes) {
            snprintf(err, errlen, "parameter '%s': '%s' gives more values than there are classes (%d)", key, list,
                     classes);
            return -1;
        }
        if (len == 0 || len >= 256) {
            snprintf(err, errlen, "parameter '%s': '%s': value %d is %s", key, list, n + 1,
                     len == 0 ? "empty" : "too long");
            return -1;
        }
        memcpy(items[n], a, len);
        items[n][len] = '\0';
        if (!*b)
            break;
        a = b + 1;
    }
    for (int c = n + 1; c < classes; c++) /* (BookSim2: resize with the last value) */
        memcpy(items[c], items[n], 256);
    return 0;
}

static uint64_t cls_next(void *ctx, int src, uint64_t from, noc_rng_t *rng)
{
    noc_class_traffic_t *ct = ctx;
    noc_traffic_t tr = noc_synthetic_traffic(&ct->syn[src / ct->terms]);
    return tr.ops->next(tr.ctx, src % ct->terms, from, rng);
}

static void cls_make(void *ctx, int src, noc_rng_t *rng, int *dst, int *size, int *type)
{
    noc_class_traffic_t *ct = ctx;
    noc_traffic_t tr = noc_synthetic_traffic(&ct->syn[src / ct->terms]);
    tr.ops->make(tr.ctx, src % ct->terms, rng, dst, size, type);
}

static const noc_traffic_ops_t cls_ops = { cls_next, cls_make };

int noc_class_traffic_init(noc_class_traffic_t *ct, const noc_config_t *cfg, const noc_topo_t *t, char *err,
                           size_t errlen)
{
    int C = (int)cfg->classes;
    memset(ct, 0, sizeof *ct);
    if (C < 1 || C > NOC_MAX_CLASSES) {
        snprintf(err, errlen, "parameter 'classes': %d is out of range [1, %d]", C, NOC_MAX_CLASSES);
        return -1;
    }
    ct->classes = C;
    ct->terms = noc_topo_terminals(t);
    if (C == 1 && !cfg->class_injection_rate[0] && !cfg->class_packet_size[0] && !cfg->class_traffic[0] &&
        !cfg->class_injection_process[0]) { /* one source a terminal, as it always was */
        ct->plain = 1;
        if (noc_synthetic_init(&ct->syn[0], cfg, t, err, errlen) == 0)
            return 0;
        ct->classes = 0; /* (noc_synthetic_init freed what it made) */
        return -1;
    }
    char(*rate)[256] = noc_xcalloc(4 * NOC_MAX_CLASSES, 256, "traffic classes"); /* (sweeps run in threads) */
    char(*size)[256] = rate + NOC_MAX_CLASSES, (*pat)[256] = size + NOC_MAX_CLASSES, (*proc)[256] = pat + NOC_MAX_CLASSES;
    char r0[64], s0[32];
    snprintf(r0, sizeof r0, "%.17g", cfg->injection_rate);
    snprintf(s0, sizeof s0, "%lld", (long long)cfg->packet_size);
    if (noc_class_list("class_injection_rate", cfg->class_injection_rate, r0, C, rate, err, errlen) ||
        noc_class_list("class_packet_size", cfg->class_packet_size, s0, C, size, err, errlen) ||
        noc_class_list("class_traffic", cfg->class_traffic, cfg->traffic, C, pat, err, errlen) ||
        noc_class_list("class_injection_process", cfg->class_injection_process, cfg->injection_process, C, proc,
                       err, errlen)) {
        free(rate);
        ct->classes = 0;
        return -1;
    }
    noc_config_t *cc = noc_xmalloc(sizeof *cc, "traffic classes");
    int rc = 0;
    for (int c = 0; c < C && rc == 0; c++) {
        char why[600];
        *cc = *cfg;
        if (noc_config_set(cc, "injection_rate", rate[c], why, sizeof why) ||
            noc_config_set(cc, "packet_size", size[c], why, sizeof why) ||
            noc_config_set(cc, "traffic", pat[c], why, sizeof why) ||
            noc_config_set(cc, "injection_process", proc[c], why, sizeof why) ||
            noc_synthetic_init(&ct->syn[c], cc, t, why, sizeof why)) {
            snprintf(err, errlen, "traffic class %d: %s", c, why);
            for (int k = 0; k <= c; k++)
                noc_synthetic_free(&ct->syn[k]);
            rc = -1;
        }
    }
    free(cc);
    free(rate);
    if (rc)
        ct->classes = 0;
    return rc;
}

noc_traffic_t noc_class_traffic(noc_class_traffic_t *ct)
{
    if (ct->plain) /* (the terminal is the source: no class to decode) */
        return noc_synthetic_traffic(&ct->syn[0]);
    noc_traffic_t tr = { &cls_ops, ct };
    return tr;
}

void noc_class_traffic_free(noc_class_traffic_t *ct)
{
    for (int c = 0; c < ct->classes; c++)
        noc_synthetic_free(&ct->syn[c]);
    ct->classes = 0;
}
