/* sim_check.c: the checks of a configuration before a simulator is built
 * (ranges of the parameters, the per-class link latencies and widths):
 * sim.c's, apart to keep that file small. */
#include "model/sim_internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_range(const char *name, int64_t v, int64_t lo, int64_t hi, char *err, size_t errlen)
{
    if (v < lo || v > hi) {
        snprintf(err, errlen, "parameter '%s': %lld is out of range [%lld, %lld]", name,
                 (long long)v, (long long)lo, (long long)hi);
        return -1;
    }
    return 0;
}

/* A per-class parameter `name` (CLASS:VALUE,...) over gr's link classes:
 * vals[c] keeps its default unless the list names class c. */
static int class_values(const char *name, const char *list, const noc_graph_t *gr, int *vals,
                        int lo, int hi, char *err, size_t errlen)
{
    char buf[NOC_CONFIG_STR_MAX];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
        char *colon = strchr(tok, ':');
        char *end = NULL;
        long v = colon ? strtol(colon + 1, &end, 10) : 0;
        if (!colon || end == colon + 1 || *end != '\0' || v < lo || v > hi) {
            snprintf(err, errlen, "parameter '%s': '%s' is not CLASS:VALUE with %d <= VALUE <= %d",
                     name, tok, lo, hi);
            return -1;
        }
        *colon = '\0';
        int found = -1;
        for (int c = 0; c < gr->n_classes; c++)
            if (strcmp(gr->class_name[c], tok) == 0)
                found = c;
        if (found < 0) {
            char names[256] = "";
            for (int c = 0; c < gr->n_classes; c++) {
                strncat(names, " ", sizeof names - strlen(names) - 1);
                strncat(names, gr->class_name[c], sizeof names - strlen(names) - 1);
            }
            snprintf(err, errlen, "parameter '%s': %s has no link class '%s' (classes:%s)", name,
                     gr->name, tok, names);
            return -1;
        }
        vals[found] = (int)v;
    }
    return 0;
}

int noc_sim_class_widths(const noc_config_t *cfg, const noc_graph_t *gr, int *width, char *err, size_t errlen)
{
    for (int c = 0; c < gr->n_classes; c++)
        width[c] = cfg->link_width ? (int)cfg->link_width : (int)cfg->flit_width;
    return class_values("class_width", cfg->class_width, gr, width, 1, 65536, err, errlen);
}

/* Each link class's latency and serialisation (cycles a flit occupies the
 * link: ceil(flit_width / width), at least 1). */
int noc_sim_class_timing(const noc_config_t *cfg, const noc_graph_t *gr, int *lat, int *ser,
                        char *err, size_t errlen)
{
    int width[NOC_GRAPH_MAX_CLASSES];
    for (int c = 0; c < gr->n_classes; c++)
        lat[c] = (int)cfg->link_latency;
    if (class_values("class_latency", cfg->class_latency, gr, lat, 1, NOC_MAX_LINK_LATENCY, err, errlen) ||
        noc_sim_class_widths(cfg, gr, width, err, errlen))
        return -1;
    for (int c = 0; c < gr->n_classes; c++) {
        ser[c] = (int)((cfg->flit_width + width[c] - 1) / width[c]);
        if (ser[c] > 64) {
            snprintf(err, errlen, "link class '%s': a %d-bit link would take %d cycles per %lld-bit flit "
                     "(at most 64; raise link_width or class_width)", gr->class_name[c], width[c],
                     ser[c], (long long)cfg->flit_width);
            return -1;
        }
    }
    return 0;
}

/* classes > 1: what the classes are not built with yet, refused by name. */
static int check_classes(const noc_config_t *c, char *err, size_t errlen)
{
    const char *with = c->use_read_write ? "use_read_write (requests and replies of several classes are not modelled yet)"
                       : strcmp(c->sim_type, "batch") == 0 ? "sim_type = batch (batches of several classes are not "
                                                             "modelled yet)"
                       : c->ni_ports != 1 ? "ni_ports other than 1 (the classes share one injection channel)"
                       : c->num_vcs > 64 ? "more than 64 VCs"
                                         : NULL;
    if (!with)
        return 0;
    snprintf(err, errlen, "parameter 'classes': %lld traffic classes with %s; give classes = 1", (long long)c->classes,
             with);
    return -1;
}

int noc_sim_check_config(const noc_config_t *c, char *err, size_t errlen)
{
    if (check_range("num_vcs", c->num_vcs, 0, 64, err, errlen) ||
        check_range("vc_buf_size", c->vc_buf_size, 1, 4096, err, errlen) ||
        check_range("packet_size", c->packet_size, 1, 65535, err, errlen) ||
        check_range("routing_delay", c->routing_delay, 0, 16, err, errlen) ||
        check_range("vc_alloc_delay", c->vc_alloc_delay, 0, 16, err, errlen) ||
        check_range("sw_alloc_delay", c->sw_alloc_delay, 0, 16, err, errlen) ||
        check_range("st_final_delay", c->st_final_delay, 0, 16, err, errlen) ||
        check_range("link_latency", c->link_latency, 1, NOC_MAX_LINK_LATENCY, err, errlen) ||
        check_range("local_latency", c->local_latency, 1, 64, err, errlen) ||
        check_range("inject_latency", c->inject_latency, 0, 64, err, errlen) ||
        check_range("inject_credit_delay", c->inject_credit_delay, 0, 64, err, errlen) ||
        check_range("eject_credit_delay", c->eject_credit_delay, 0, 64, err, errlen) ||
        check_range("self_traffic", c->self_traffic, 0, 1, err, errlen) ||
        check_range("flit_width", c->flit_width, 1, 65536, err, errlen) ||
        check_range("link_width", c->link_width, 0, 65536, err, errlen) ||
        check_range("credit_delay", c->credit_delay, 1, 64, err, errlen) ||
        check_range("ni_ports", c->ni_ports, 0, 62, err, errlen) ||
        check_range("lookahead", c->lookahead, 0, 1, err, errlen) ||
        check_range("alloc_iters", c->alloc_iters, 1, 16, err, errlen) ||
        check_range("input_speedup", c->input_speedup, 1, 64, err, errlen) ||
        check_range("output_speedup", c->output_speedup, 1, 64, err, errlen) ||
        check_range("output_buffer_size", c->output_buffer_size, -1, 1 << 20, err, errlen) ||
        check_range("warmup_cycles", c->warmup_cycles, 0, INT64_C(1) << 40, err, errlen) ||
        check_range("sample_cycles", c->sample_cycles, 1, INT64_C(1) << 40, err, errlen) ||
        check_range("max_drain_cycles", c->max_drain_cycles, 0, INT64_C(1) << 40, err, errlen) ||
        check_range("max_samples", c->max_samples, 0, 1 << 30, err, errlen) ||
        check_range("batch_size", c->batch_size, 1, INT32_MAX, err, errlen) ||
        check_range("sim_count", c->sim_count, 1, 1000, err, errlen) ||
        check_range("classes", c->classes, 1, 8, err, errlen) ||
        check_range("batch_count", c->batch_count, 1, 1 << 20, err, errlen) ||
        check_range("max_outstanding_requests", c->max_outstanding_requests, 0, INT32_MAX, err, errlen) ||
        check_range("source_queue", c->source_queue, 0, 1 << 20, err, errlen) ||
        check_range("deadlock_cycles", c->deadlock_cycles, 10, INT64_C(1) << 40, err, errlen) ||
        check_range("compute_cycles", c->compute_cycles, 0, 1 << 20, err, errlen) ||
        check_range("sync_steps", c->sync_steps, 0, 1, err, errlen) ||
        check_range("check", c->check, 0, 1, err, errlen))
        return -1;
    if (strcmp(c->sim_type, "latency") != 0 && strcmp(c->sim_type, "throughput") != 0 &&
        strcmp(c->sim_type, "batch") != 0) {
        snprintf(err, errlen, "parameter 'sim_type': '%s' is not latency, throughput or batch", c->sim_type);
        return -1;
    }
    if (strcmp(c->json_tables, "auto") != 0 && strcmp(c->json_tables, "full") != 0 &&
        strcmp(c->json_tables, "summary") != 0) {
        snprintf(err, errlen, "parameter 'json_tables': '%s' is not auto, full or summary", c->json_tables);
        return -1;
    }
    if (!(c->internal_speedup >= 1.0 && c->internal_speedup <= 16.0)) {
        snprintf(err, errlen, "parameter 'internal_speedup': %g is out of range [1, 16]", c->internal_speedup);
        return -1;
    }
    if (c->output_buffer_size == 0) {
        snprintf(err, errlen, "parameter 'output_buffer_size': 0 would never let a flit into an output queue "
                 "(BookSim2 then stops moving); -1 (no limit) or at least 1");
        return -1;
    }
    if (c->classes > 1 && check_classes(c, err, errlen))
        return -1;
    int kind;
    int64_t cls_pri[NOC_PRI_CLASSES];
    if (noc_priority_parse(c, &kind, cls_pri, err, errlen) != 0)
        return -1;
    if (c->injection_rate < 0.0 || c->injection_rate > 64.0) {
        snprintf(err, errlen, "parameter 'injection_rate': %g is out of range [0, 64]", c->injection_rate);
        return -1;
    }
    return 0;
}
