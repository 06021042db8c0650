/* synthetic.c: the injection process (Bernoulli, or BookSim2's on-off
 * process) plus a destination pattern. */
#include "traffic/synthetic.h"
#include "util/suggest.h"
#include "util/xalloc.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The next cycle from `from` on in which node makes a packet under the on-off
 * process, stepping its state cycle by cycle as BookSim2's test() does: the
 * state moves first, then an on node draws against r1. */
static uint64_t onoff_next(const noc_synthetic_t *syn, int node, uint64_t from, noc_rng_t *rng)
{
    uint8_t *st = &syn->state[node];
    if (*st == 2)
        *st = (uint8_t)(noc_rng_below(rng, 2)); /* BookSim2's RandomInt(1) */
    for (uint64_t t = from;; t++) {
        *st = *st ? noc_rng_unit(rng) >= syn->beta : noc_rng_unit(rng) < syn->alpha;
        if (*st && noc_rng_unit(rng) < syn->r1)
            return t;
    }
}

static uint64_t syn_next(void *ctx, int node, uint64_t from, noc_rng_t *rng)
{
    const noc_synthetic_t *syn = ctx;
    if (syn->p <= 0.0)
        return NOC_NEVER;
    if (syn->state)
        return onoff_next(syn, node, from, rng);
    return from + noc_rng_geometric_log(rng, syn->p, syn->log_q);
}

static void syn_make(void *ctx, int node, noc_rng_t *rng, int *dst, int *size, int *type)
{
    const noc_synthetic_t *syn = ctx;
    *type = NOC_PKT_ANY;
    *size = syn->size;
    if (syn->rw) { /* BookSim2's coin, tossed before the destination is drawn */
        int w = noc_rng_unit(rng) < syn->write_fraction;
        *type = w ? NOC_PKT_WRITE_REQ : NOC_PKT_READ_REQ;
        *size = w ? syn->write_size : syn->read_size;
    }
    *dst = noc_pattern_dest(&syn->pattern, node, rng);
}

static const noc_traffic_ops_t syn_ops = { syn_next, syn_make };

/* alpha, beta and r1 as BookSim2 reads them: exactly one is negative and
 * derived from the rate p so that the long-run rate r1 * alpha / (alpha +
 * beta) is p. */
static int onoff_init(noc_synthetic_t *syn, const noc_config_t *cfg, int nodes, char *err, size_t errlen)
{
    double a = cfg->burst_alpha, b = cfg->burst_beta, r1 = cfg->burst_r1, p = syn->p;
    int negative = (a < 0) + (b < 0) + (r1 < 0);
    if (negative != 1 || a > 1 || b > 1 || r1 > 1) {
        snprintf(err, errlen, "injection_process on_off: exactly one of burst_alpha (%g), burst_beta (%g) and "
                 "burst_r1 (%g) must be negative (that one is derived from the rate), the others in [0, 1]", a, b, r1);
        return -1;
    }
    if (a < 0)
        a = r1 > p ? b * p / (r1 - p) : -1;
    else if (b < 0)
        b = p > 0 ? a * (r1 - p) / p : -1;
    else
        r1 = a > 0 ? p * (a + b) / a : -1;
    if (a < 0 || b < 0 || r1 < 0 || a > 1 || b > 1) {
        snprintf(err, errlen, "injection_process on_off: the rate %g packets per node per cycle cannot be met with "
                 "burst_alpha %g, burst_beta %g, burst_r1 %g", p, cfg->burst_alpha, cfg->burst_beta, cfg->burst_r1);
        return -1;
    }
    syn->alpha = a;
    syn->beta = b;
    syn->r1 = r1;
    syn->state = noc_xmalloc((size_t)nodes, "on-off injection");
    memset(syn->state, 2, (size_t)nodes);
    return 0;
}

/* use_read_write: the request sizes and the write fraction; syn->flits
 * becomes the flits of a request and its reply, on average. */
static int rw_init(noc_synthetic_t *syn, const noc_config_t *cfg, char *err, size_t errlen)
{
    syn->rw = cfg->use_read_write != 0;
    if (!syn->rw)
        return 0;
    const struct { const char *name; long long v; } sz[] = {
        { "read_request_size", cfg->read_request_size }, { "read_reply_size", cfg->read_reply_size },
        { "write_request_size", cfg->write_request_size }, { "write_reply_size", cfg->write_reply_size },
    };
    for (size_t i = 0; i < sizeof sz / sizeof sz[0]; i++)
        if (sz[i].v < 1 || sz[i].v > 65535) {
            snprintf(err, errlen, "parameter '%s': %lld is out of range [1, 65535]", sz[i].name, sz[i].v);
            return -1;
        }
    double wf = cfg->write_fraction;
    if (!(wf >= 0.0 && wf <= 1.0)) {
        snprintf(err, errlen, "parameter 'write_fraction': %g is not in [0, 1]", wf);
        return -1;
    }
    /* (a BookSim2 batch run tosses an even coin: batchtrafficmanager.cpp) */
    syn->write_fraction = cfg->booksim && strcmp(cfg->sim_type, "batch") == 0 ? 0.5 : wf;
    syn->read_size = (int)cfg->read_request_size;
    syn->write_size = (int)cfg->write_request_size;
    syn->flits = (1.0 - syn->write_fraction) * (double)(cfg->read_request_size + cfg->read_reply_size) +
                 syn->write_fraction * (double)(cfg->write_request_size + cfg->write_reply_size);
    return 0;
}

int noc_synthetic_init(noc_synthetic_t *syn, const noc_config_t *cfg, const noc_topo_t *t,
                       char *err, size_t errlen)
{
    syn->state = NULL; /* noc_synthetic_free is safe whatever happens below */
    memset(&syn->pattern, 0, sizeof syn->pattern);
    char args[NOC_CONFIG_STR_MAX];
    int has_args;
    noc_pattern_kind_t k = noc_pattern_split(cfg->traffic, args, sizeof args, &has_args);
    if (k == NOC_PAT_COUNT) {
        char near[32], dym[64] = "";
        if (!has_args && noc_suggest_list(cfg->traffic, noc_pattern_list(), near, sizeof near)[0])
            snprintf(dym, sizeof dym, "did you mean '%s'? ", near);
        snprintf(err, errlen, "parameter 'traffic': unknown pattern '%s' (%sknown: %s%s)", cfg->traffic, dym,
                 noc_pattern_list(), has_args ? "; arguments go in NAME(...), ')' last" : "");
        return -1;
    }
    int hot = noc_topo_find_terminal(t, cfg->hotspot_node);
    if (hot < 0) {
        snprintf(err, errlen, "parameter 'hotspot_node': '%s' names no node of %s", cfg->hotspot_node,
                 noc_topo_spec(t));
        return -1;
    }
    if (cfg->hotspot_rate < 0.0 || cfg->hotspot_rate > 1.0) {
        snprintf(err, errlen, "parameter 'hotspot_rate': %g is not in [0, 1]", cfg->hotspot_rate);
        return -1;
    }
    if (k == NOC_PAT_HOTSPOT && has_args && (strcmp(cfg->hotspot_node, "0") != 0 || cfg->hotspot_rate != 0.2)) {
        snprintf(err, errlen, "parameter 'traffic': '%s' sends every packet to its listed nodes; hotspot_node "
                 "and hotspot_rate (%s, %g) are for the plain hotspot: leave them out", cfg->traffic,
                 cfg->hotspot_node, cfg->hotspot_rate);
        return -1;
    }
    noc_pattern_opts_t o = { hot, cfg->hotspot_rate, cfg->perm_seed, has_args ? args : NULL };
    char why[512];
    if (noc_pattern_setup(&syn->pattern, k, t, &o, why, sizeof why) != 0) {
        if (has_args) /* the message names NAME(ARGS) */
            snprintf(err, errlen, "parameter 'traffic': %s", why);
        else
            snprintf(err, errlen, "parameter 'traffic' = '%s': %s", cfg->traffic, why);
        return -1;
    }
    syn->pattern.self = cfg->self_traffic != 0;
    if (cfg->packet_size < 1 || cfg->packet_size > 65535) {
        snprintf(err, errlen, "parameter 'packet_size': %lld is out of range [1, 65535]",
                 (long long)cfg->packet_size);
        noc_synthetic_free(syn);
        return -1;
    }
    syn->size = (int)cfg->packet_size;
    syn->flits = (double)syn->size;
    if (rw_init(syn, cfg, err, errlen) != 0) {
        noc_synthetic_free(syn);
        return -1;
    }
    /* flits into packets: by their mean; a BookSim2 file's request/reply
     * traffic by BookSim2's (trafficmanager.cpp _GetAveragePacketSize:
     * the four sizes' sum halved, in integers) */
    double per = syn->flits;
    if (syn->rw && cfg->booksim)
        per = (double)((cfg->read_request_size + cfg->read_reply_size + cfg->write_request_size +
                        cfg->write_reply_size) / 2);
    syn->p = cfg->injection_rate_uses_flits ? cfg->injection_rate / per : cfg->injection_rate;
    if (syn->p < 0.0 || syn->p > 1.0) {
        snprintf(err, errlen, "parameter 'injection_rate': %g asks for %g packets per node per cycle; "
                 "a node generates at most one packet a cycle", cfg->injection_rate, syn->p);
        noc_synthetic_free(syn);
        return -1;
    }
    syn->log_q = syn->p < 1.0 ? log1p(-syn->p) : 0.0;
    syn->state = NULL;
    if (strcmp(cfg->injection_process, "bernoulli") == 0)
        return 0;
    if (strcmp(cfg->injection_process, "on_off") != 0) {
        snprintf(err, errlen, "parameter 'injection_process': '%s' is not bernoulli or on_off%s", cfg->injection_process,
                 strncmp(cfg->injection_process, "on_off(", 7) == 0 ? " (give burst_alpha, burst_beta and burst_r1 "
                                                                     "instead of parameters in the value)" : "");
        noc_synthetic_free(syn);
        return -1;
    }
    if (onoff_init(syn, cfg, noc_topo_terminals(t), err, errlen) != 0) {
        noc_synthetic_free(syn);
        return -1;
    }
    return 0;
}

void noc_synthetic_free(noc_synthetic_t *syn)
{
    free(syn->state);
    syn->state = NULL;
    noc_pattern_free(&syn->pattern);
}

noc_traffic_t noc_synthetic_traffic(noc_synthetic_t *syn)
{
    noc_traffic_t tr = { &syn_ops, syn };
    return tr;
}
