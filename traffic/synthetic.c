/* synthetic.c: Bernoulli injection process plus destination pattern. */
#include "traffic/synthetic.h"
#include "util/suggest.h"
#include <math.h>
#include <stdio.h>

static uint64_t syn_next(void *ctx, int node, uint64_t from, noc_rng_t *rng)
{
    const noc_synthetic_t *syn = ctx;
    (void)node;
    if (syn->p <= 0.0)
        return NOC_NEVER;
    return from + noc_rng_geometric_log(rng, syn->p, syn->log_q);
}

static void syn_make(void *ctx, int node, noc_rng_t *rng, int *dst, int *size)
{
    const noc_synthetic_t *syn = ctx;
    *dst = noc_pattern_dest(&syn->pattern, node, rng);
    *size = syn->size;
}

static const noc_traffic_ops_t syn_ops = { syn_next, syn_make };

int noc_synthetic_init(noc_synthetic_t *syn, const noc_config_t *cfg, const noc_topo_t *t,
                       char *err, size_t errlen)
{
    noc_pattern_kind_t k = noc_pattern_parse(cfg->traffic);
    if (k == NOC_PAT_COUNT) {
        char near[32], dym[64] = "";
        if (noc_suggest_list(cfg->traffic, noc_pattern_list(), near, sizeof near)[0])
            snprintf(dym, sizeof dym, "did you mean '%s'? ", near);
        snprintf(err, errlen, "parameter 'traffic': unknown pattern '%s' (%sknown: %s)", cfg->traffic, dym,
                 noc_pattern_list());
        return -1;
    }
    int hot = noc_topo_find_label(t, cfg->hotspot_node);
    if (hot < 0) {
        snprintf(err, errlen, "parameter 'hotspot_node': '%s' names no node of %s", cfg->hotspot_node,
                 noc_topo_spec(t));
        return -1;
    }
    if (cfg->hotspot_rate < 0.0 || cfg->hotspot_rate > 1.0) {
        snprintf(err, errlen, "parameter 'hotspot_rate': %g is not in [0, 1]", cfg->hotspot_rate);
        return -1;
    }
    if (noc_pattern_init(&syn->pattern, k, t, hot, cfg->hotspot_rate, err, errlen) != 0)
        return -1;
    syn->pattern.self = cfg->self_traffic != 0;
    if (cfg->packet_size < 1 || cfg->packet_size > 65535) {
        snprintf(err, errlen, "parameter 'packet_size': %lld is out of range [1, 65535]",
                 (long long)cfg->packet_size);
        return -1;
    }
    syn->size = (int)cfg->packet_size;
    syn->p = cfg->injection_rate_uses_flits ? cfg->injection_rate / (double)syn->size
                                            : cfg->injection_rate;
    if (syn->p < 0.0 || syn->p > 1.0) {
        snprintf(err, errlen, "parameter 'injection_rate': %g asks for %g packets per node per cycle; "
                 "a node generates at most one packet a cycle", cfg->injection_rate, syn->p);
        return -1;
    }
    syn->log_q = syn->p < 1.0 ? log1p(-syn->p) : 0.0;
    return 0;
}

noc_traffic_t noc_synthetic_traffic(noc_synthetic_t *syn)
{
    noc_traffic_t tr = { &syn_ops, syn };
    return tr;
}
