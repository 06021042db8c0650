/* run_report.c: the human summary and the JSON of a synthetic run (JSON
 * through jansson, Debian's libjansson). Both carry the same figures; JSON adds the
 * per-link table. Nodes are named by their labels in the topology's notation. */
#include "report/report.h"
#include "report/json_internal.h"
#include "report/links_summary.h"
#include "util/version.h"
#include <stdlib.h>
#include <string.h>

double noc_report_window(const noc_sim_t *s)
{
    const noc_stats_t *st = noc_sim_stats(s);
    return st->sample ? (double)st->sample : 1.0;
}

/* The k network links (not the local channels) that carried the most
 * flits, most first; ties in channel order. Returns how many were found. */
static int hottest_links(const noc_sim_t *s, int *ids, int k)
{
    int nc = noc_sim_n_channels(s), found = 0;
    for (int c = 0; c < nc; c++) {
        int from, to, local, cls;
        noc_sim_channel_ends(s, c, &from, &to, &local, &cls);
        if (local)
            continue;
        uint64_t fc = noc_sim_link_stats(s, c)->flits;
        int j = found < k ? found++ : k;
        while (j > 0 && noc_sim_link_stats(s, ids[j - 1])->flits < fc) {
            if (j < k)
                ids[j] = ids[j - 1];
            j--;
        }
        if (j < k)
            ids[j] = c;
    }
    return found;
}

/* Per link class: links, flits carried, mean and peak utilisation. */
typedef struct class_load {
    int channels, links; /* directed channels; links, each a channel both ways, once */
    int latency_max, cycles_per_flit;
    uint64_t flits, busy, busy_max;
} class_load_t;

static void class_loads(const noc_sim_t *s, class_load_t *cl)
{
    const noc_graph_t *gr = noc_sim_graph(s);
    memset(cl, 0, sizeof(class_load_t) * (size_t)gr->n_classes);
    for (int c = 0; c < noc_sim_n_channels(s); c++) {
        int from, to, local, cls;
        noc_sim_channel_ends(s, c, &from, &to, &local, &cls);
        if (local)
            continue;
        const noc_link_stats_t *l = noc_sim_link_stats(s, c);
        int lat, ser;
        noc_sim_channel_timing(s, c, &lat, &ser);
        if (lat > cl[cls].latency_max)
            cl[cls].latency_max = lat;
        cl[cls].cycles_per_flit = ser; /* the same for every link of a class */
        cl[cls].channels++;
        cl[cls].links += c < gr->peer[c]; /* a link once, from its lower port */
        cl[cls].flits += l->flits;
        cl[cls].busy += l->busy;
        if (l->busy > cl[cls].busy_max)
            cl[cls].busy_max = l->busy;
    }
}

static void link_name(const noc_sim_t *s, int c, char *buf, size_t len, int *cls)
{
    const noc_graph_t *gr = noc_sim_graph(s);
    int from, to, local;
    char a[64], b[64];
    noc_sim_channel_ends(s, c, &from, &to, &local, cls);
    noc_graph_label(gr, from, a, sizeof a);
    noc_graph_label(gr, to, b, sizeof b);
    snprintf(buf, len, "%s->%s", a, b);
}

/* The injection and ejection channels' load: average and highest busy
 * share of the window, over every node. */
static void local_text(FILE *f, const noc_sim_t *s)
{
    const noc_graph_t *gr = noc_sim_graph(s);
    uint64_t busy[2] = { 0, 0 }, top[2] = { 0, 0 };
    int n[2] = { 0, 0 };
    for (int c = 0; c < noc_sim_n_channels(s); c++) {
        int local, from;
        noc_sim_channel_ends(s, c, &from, NULL, &local, NULL);
        if (!local || (c < gr->n_ports && !noc_graph_ejects_at(gr, from, c)))
            continue; /* (a butterfly's first stage ejects nothing) */
        int k = c < gr->n_ports; /* 1: ejection */
        uint64_t b = noc_sim_link_stats(s, c)->busy;
        busy[k] += b;
        n[k]++;
        if (b > top[k])
            top[k] = b;
    }
    if (!n[0] && !n[1])
        return;
    fprintf(f, "  local         injection %.1f%% busy on average, %.1f%% at most;  ejection %.1f%%, %.1f%% at most\n",
            n[0] ? 100.0 * (double)busy[0] / ((double)n[0] * noc_report_window(s)) : 0.0, 100.0 * (double)top[0] / noc_report_window(s),
            n[1] ? 100.0 * (double)busy[1] / ((double)n[1] * noc_report_window(s)) : 0.0, 100.0 * (double)top[1] / noc_report_window(s));
}

void noc_report_links_text(FILE *f, const noc_sim_t *s)
{
    const noc_graph_t *gr = noc_sim_graph(s);
    class_load_t cl[NOC_GRAPH_MAX_CLASSES];
    class_loads(s, cl);
    fprintf(f, "  link classes ");
    for (int k = 0; k < gr->n_classes; k++) {
        if (!cl[k].channels)
            continue;
        char ser[40] = "";
        if (cl[k].cycles_per_flit > 1)
            snprintf(ser, sizeof ser, " (%d cycles a flit)", cl[k].cycles_per_flit);
        fprintf(f, "%s%s: %d links (%d channels)%s, %.1f%% busy on average, %.1f%% at most", k ? ";  " : " ",
                gr->class_name[k], cl[k].links, cl[k].channels, ser,
                100.0 * (double)cl[k].busy / ((double)cl[k].channels * noc_report_window(s)),
                100.0 * (double)cl[k].busy_max / noc_report_window(s));
    }
    fputc('\n', f);
    local_text(f, s);
    int ids[4];
    int k = hottest_links(s, ids, 4);
    fprintf(f, "  hottest links");
    for (int i = 0; i < k; i++) {
        char name[160];
        int cls;
        link_name(s, ids[i], name, sizeof name, &cls);
        const noc_link_stats_t *l = noc_sim_link_stats(s, ids[i]);
        fprintf(f, "%s%s %s %.1f%%", i ? ",  " : " ", name, cls >= 0 ? gr->class_name[cls] : "",
                100.0 * (double)l->busy / noc_report_window(s));
    }
    fputc('\n', f);
}

void noc_report_text(FILE *f, const noc_sim_t *s, const noc_run_result_t *res)
{
    const noc_stats_t *st = noc_sim_stats(s);
    const noc_config_t *c = noc_sim_config(s);
    const noc_graph_t *gr = noc_sim_graph(s);
    char routers[48] = "";
    if (gr->term_base) /* concentration: nodes are the terminals */
        snprintf(routers, sizeof routers, " on %d routers", gr->n_nodes);
    char sizes[160];
    if (c->use_read_write) /* (packet_size is not used) */
        snprintf(sizes, sizeof sizes, "requests and replies: reads %lld + %lld flits, writes %lld + %lld (%g of them)",
                 (long long)c->read_request_size, (long long)c->read_reply_size, (long long)c->write_request_size,
                 (long long)c->write_reply_size, c->write_fraction);
    else if (c->classes > 1)
        snprintf(sizes, sizeof sizes, "%lld traffic classes (each below)", (long long)c->classes);
    else
        snprintf(sizes, sizeof sizes, "%lld-flit packets", (long long)c->packet_size);
    if (st->batches > 0 || strcmp(c->sim_type, "batch") == 0) {
        char limit[64] = "";
        if (c->max_outstanding_requests > 0)
            snprintf(limit, sizeof limit, ", at most %lld unanswered", (long long)c->max_outstanding_requests);
        fprintf(f, "noctua %s: %s (%d nodes%s), router %s, %s traffic in batches of %lld packets a node%s, %s\n",
                noc_version(), gr->name, noc_graph_terms(gr), routers, c->router, c->traffic,
                (long long)c->batch_size, limit, sizes);
    } else {
        fprintf(f, "noctua %s: %s (%d nodes%s), router %s, %s traffic at %.3f flits/node/cycle, %s\n",
                noc_version(), gr->name, noc_graph_terms(gr), routers, c->router, c->traffic, res->offered, sizes);
    }
    fprintf(f, "  cycles        %llu (warm-up %llu, window %llu, drain %llu)\n",
            (unsigned long long)st->cycles, (unsigned long long)st->warmup,
            (unsigned long long)st->sample, (unsigned long long)st->drain);
    if (st->batches > 0)
        fprintf(f, "  batches       %u: %.1f cycles on average, min %llu, max %llu\n", st->batches,
                (double)st->batch_sum / (double)st->batches, (unsigned long long)st->batch_min,
                (unsigned long long)st->batch_max);
    if (st->periods > 0)
        fprintf(f, "  sampling      %u periods of %lld cycles (%u warm-up, %u measured): %s\n", st->periods,
                (long long)c->sample_cycles, st->warmup_periods, st->periods - st->warmup_periods,
                noc_stop_name(st->stopped));
    fprintf(f, "  packets       %llu measured (%llu flits); %llu created in all\n",
            (unsigned long long)st->packets, (unsigned long long)st->flits,
            (unsigned long long)st->packets_created);
    fprintf(f, "  latency       avg %.2f  min %llu  p50 %llu  p99 %llu  max %llu cycles\n",
            noc_lat_avg(&st->latency), (unsigned long long)st->latency.min,
            (unsigned long long)noc_stats_percentile(st, 0.50),
            (unsigned long long)noc_stats_percentile(st, 0.99), (unsigned long long)st->latency.max);
    fprintf(f, "    network     avg %.2f  min %llu  max %llu\n", noc_lat_avg(&st->net_latency),
            (unsigned long long)st->net_latency.min, (unsigned long long)st->net_latency.max);
    if (st->flit_latency.n)
        fprintf(f, "    flit        avg %.2f  min %llu  max %llu\n", noc_lat_avg(&st->flit_latency),
                (unsigned long long)st->flit_latency.min, (unsigned long long)st->flit_latency.max);
    fprintf(f, "    queueing    avg %.2f  min %llu  max %llu\n", noc_lat_avg(&st->queue_latency),
            (unsigned long long)st->queue_latency.min, (unsigned long long)st->queue_latency.max);
    fprintf(f, "  hops          avg %.2f  max %llu\n", noc_lat_avg(&st->hops), (unsigned long long)st->hops.max);
    fprintf(f, "  throughput    offered %.4f  accepted %.4f flits/node/cycle\n", res->offered, res->accepted);
    if (res->status == NOC_RUN_INTERRUPTED)
        fprintf(f, "  state         INTERRUPTED at cycle %llu: the figures cover the cycles simulated\n",
                (unsigned long long)st->cycles);
    else if (res->status == NOC_RUN_DEADLOCK)
        fprintf(f, "  state         DEADLOCK: no flit moved for %lld cycles with %llu flits in the network\n",
                (long long)c->deadlock_cycles, (unsigned long long)noc_sim_flits_in_network(s));
    else if (st->stopped == NOC_STOP_UNSTABLE)
        fprintf(f, "  state         UNSTABLE at cycle %llu: the average latency passed latency_thres = %g; stopped "
                "without a drain (saturated)\n", (unsigned long long)st->stopped_at, c->latency_thres);
    else if (strcmp(c->sim_type, "batch") == 0)
        fprintf(f, "  state         %u of %lld batches done\n", st->batches, (long long)c->batch_count);
    else if (st->saturated)
        fprintf(f, "  state         SATURATED: the network accepts %.4f of the %.4f flits/node/cycle offered%s\n",
                res->accepted, res->offered,
                st->packets_offered_lost ? " (source queues overflowed)" : "");
    else if (st->window_filling)
        fprintf(f, "  state         UNDETERMINED: %.4f of the %.4f flits/node/cycle offered arrived within the "
                "%llu-cycle window, but the source queues grew by %lld flits only (under 5%% of those offered) and "
                "every measured packet arrived: the window closed with flits on their way. A longer "
                "sample_cycles, or a warm-up, tells whether the network saturates\n",
                res->accepted, res->offered, (unsigned long long)st->sample, (long long)st->queue_growth);
    else
        fprintf(f, "  state         below saturation\n");
    noc_report_tclass_text(f, s);
    if (res->sims)
        noc_report_sims_text(f, res->sims, c->sim_count);
    noc_report_energy_text(f, s);
    noc_report_nodes_text(f, s);
    noc_report_links_text(f, s);
}

static json_t *lat_json(const noc_lat_sum_t *l)
{
    return json_pack("{s:f, s:I, s:I, s:I}", "avg", noc_lat_avg(l), "min", (json_int_t)l->min,
                     "max", (json_int_t)l->max, "count", (json_int_t)l->n);
}

json_t *noc_report_config_json(const noc_sim_t *s)
{
    const noc_config_t *c = noc_sim_config(s);
    json_t *cfg = json_object();
    size_t np;
    const noc_param_info_t *p = noc_params(&np);
    for (size_t i = 0; i < np; i++) {
        char buf[NOC_CONFIG_STR_MAX];
        if (strcmp(p[i].name, "threads") == 0)
            continue; /* how the run was computed, not what: the report is the same for any count */
        noc_config_get(c, p[i].name, buf, sizeof buf);
        if (p[i].type == NOC_PARAM_INT || p[i].type == NOC_PARAM_BOOL)
            json_object_set_new(cfg, p[i].name, json_integer(strtoll(buf, NULL, 10)));
        else if (p[i].type == NOC_PARAM_DBL)
            json_object_set_new(cfg, p[i].name, json_real(strtod(buf, NULL)));
        else
            json_object_set_new(cfg, p[i].name, json_string(buf));
    }
    return cfg;

}

int noc_report_table_has(const noc_sim_t *s, int c, int local)
{
    const noc_graph_t *gr = noc_sim_graph(s);
    int from, to, is_local;
    noc_sim_channel_ends(s, c, &from, &to, &is_local, NULL);
    /* (the local table leaves out the routers' ports that eject nowhere) */
    return is_local == local && !(local && c < gr->n_ports && !noc_graph_ejects_at(gr, from, c));
}

json_t *noc_report_link_row(const void *ctx, size_t c)
{
    const noc_sim_t *s = ctx;
    const noc_graph_t *gr = noc_sim_graph(s);
    int from, to, local, cls, ch = (int)c;
    if (!noc_report_table_has(s, ch, 0))
        return NULL;
    noc_sim_channel_ends(s, ch, &from, &to, &local, &cls);
    char a[64], b[64];
    noc_graph_label(gr, from, a, sizeof a);
    noc_graph_label(gr, to, b, sizeof b);
    const noc_link_stats_t *l = noc_sim_link_stats(s, ch);
    return json_pack("{s:s, s:s, s:s, s:I, s:I, s:f, s:I, s:I, s:I}",
        "from", a, "to", b, "class", gr->class_name[cls], "flits", (json_int_t)l->flits,
        "busy", (json_int_t)l->busy, "utilisation", (double)l->busy / noc_report_window(s),
        "contention", (json_int_t)l->contention, "credit_stall", (json_int_t)l->credit_stall,
        "peak_queue", (json_int_t)l->peak_queue);
}

json_t *noc_report_links_json(const noc_sim_t *s)
{
    json_t *links = json_array();
    for (int ch = 0, nc = noc_sim_n_channels(s); ch < nc; ch++) {
        json_t *r = noc_report_link_row(s, (size_t)ch);
        if (r)
            json_array_append_new(links, r);
    }
    return links;
}

json_t *noc_report_local_row(const void *ctx, size_t c)
{
    const noc_sim_t *s = ctx;
    const noc_graph_t *gr = noc_sim_graph(s);
    int from, to, local, ch = (int)c;
    if (!noc_report_table_has(s, ch, 1))
        return NULL;
    noc_sim_channel_ends(s, ch, &from, &to, &local, NULL);
    char a[64];
    noc_graph_label(gr, from, a, sizeof a);
    const noc_link_stats_t *l = noc_sim_link_stats(s, ch);
    return json_pack("{s:s, s:s, s:I, s:I, s:f, s:I, s:I}", "node", a,
        "direction", ch < gr->n_ports ? "eject" : "inject", "flits", (json_int_t)l->flits,
        "busy", (json_int_t)l->busy, "utilisation", (double)l->busy / noc_report_window(s),
        "credit_stall", (json_int_t)l->credit_stall, "peak_queue", (json_int_t)l->peak_queue);
}

json_t *noc_report_local_json(const noc_sim_t *s)
{
    json_t *locals = json_array();
    for (int ch = 0, nc = noc_sim_n_channels(s); ch < nc; ch++) {
        json_t *r = noc_report_local_row(s, (size_t)ch);
        if (r)
            json_array_append_new(locals, r);
    }
    return locals;
}

json_t *noc_report_classes_json(const noc_sim_t *s)
{
    const noc_graph_t *gr = noc_sim_graph(s);
    class_load_t cl[NOC_GRAPH_MAX_CLASSES];
    class_loads(s, cl);
    json_t *classes = json_array();
    for (int k = 0; k < gr->n_classes; k++) {
        if (!cl[k].channels)
            continue;
        json_array_append_new(classes, json_pack("{s:s, s:i, s:i, s:i, s:i, s:I, s:f, s:f}", "class", gr->class_name[k],
            "links", cl[k].links, "channels", cl[k].channels, "latency", cl[k].latency_max, "cycles_per_flit", cl[k].cycles_per_flit,
            "flits", (json_int_t)cl[k].flits,
            "utilisation_avg", (double)cl[k].busy / ((double)cl[k].channels * noc_report_window(s)),
            "utilisation_max", (double)cl[k].busy_max / noc_report_window(s)));
    }
    return classes;
}

/* The latency histogram: up to HIST_BINS bins of one width (1, 2 or 5 times
 * a power of ten), each {from, to, count} with both ends inclusive, and the
 * packets past the exactly kept latencies apart. */
#define HIST_BINS 40
static json_t *histogram_json(const noc_stats_t *st)
{
    uint64_t from, width, above, counts[HIST_BINS];
    int n = noc_stats_histogram(st, HIST_BINS, &from, &width, counts, &above);
    json_t *bins = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(bins, json_pack("{s:I, s:I, s:I}", "from", (json_int_t)(from + (uint64_t)i * width),
                                              "to", (json_int_t)(from + (uint64_t)(i + 1) * width - 1),
                                              "count", (json_int_t)counts[i]));
    return json_pack("{s:I, s:o, s:{s:I, s:I}}", "bin_width", (json_int_t)width, "bins", bins, "above",
                     "from", (json_int_t)NOC_LAT_HIST, "count", (json_int_t)above);
}

/* How the measurement ended (max_samples, latency_thres): "stopped", the
 * cycle of an unstable stop, BookSim2's sample periods. */
static void sampling_json(json_t *j, const noc_stats_t *st)
{
    json_object_set_new(j, "stopped", json_string(noc_stop_name(st->stopped)));
    if (st->stopped == NOC_STOP_UNSTABLE)
        json_object_set_new(j, "stopped_cycle", json_integer((json_int_t)st->stopped_at));
    if (st->batches > 0)
        json_object_set_new(j, "batches", json_pack("{s:I, s:f, s:I, s:I}", "count", (json_int_t)st->batches,
                                                    "avg_cycles", (double)st->batch_sum / (double)st->batches,
                                                    "min_cycles", (json_int_t)st->batch_min,
                                                    "max_cycles", (json_int_t)st->batch_max));
    if (st->periods > 0)
        json_object_set_new(j, "sample_periods", json_pack("{s:I, s:I, s:I}", "all", (json_int_t)st->periods,
                                                           "warmup", (json_int_t)st->warmup_periods,
                                                           "measured", (json_int_t)(st->periods - st->warmup_periods)));
}

static json_t *run_json(const noc_sim_t *s, const noc_run_result_t *res)
{
    const noc_stats_t *st = noc_sim_stats(s);
    const noc_graph_t *gr = noc_sim_graph(s);
    json_t *j = json_object();
    json_object_set_new(j, "noctua", json_string(noc_version()));
    json_object_set_new(j, "topology", json_string(gr->name));
    json_object_set_new(j, "nodes", json_integer(noc_graph_terms(gr)));
    if (gr->term_base) /* concentration: nodes (terminals) on fewer routers, or more */
        json_object_set_new(j, "routers", json_integer(gr->n_nodes));
    json_object_set_new(j, "cycles", json_integer((json_int_t)st->cycles));
    json_object_set_new(j, "phases", json_pack("{s:I, s:I, s:I}", "warmup", (json_int_t)st->warmup,
                                               "sample", (json_int_t)st->sample, "drain", (json_int_t)st->drain));
    json_object_set_new(j, "packets", json_integer((json_int_t)st->packets));
    json_object_set_new(j, "flits", json_integer((json_int_t)st->flits));
    json_object_set_new(j, "packets_created", json_integer((json_int_t)st->packets_created));
    json_object_set_new(j, "packets_refused", json_integer((json_int_t)st->packets_offered_lost));
    json_t *lat = lat_json(&st->latency);
    json_object_set_new(lat, "p50", json_integer((json_int_t)noc_stats_percentile(st, 0.50)));
    json_object_set_new(lat, "p99", json_integer((json_int_t)noc_stats_percentile(st, 0.99)));
    json_object_set_new(lat, "network", lat_json(&st->net_latency));
    if (st->flit_latency.n)
        json_object_set_new(lat, "flit", lat_json(&st->flit_latency));
    json_object_set_new(lat, "queueing", lat_json(&st->queue_latency));
    json_object_set_new(lat, "histogram", histogram_json(st));
    json_object_set_new(j, "latency", lat);
    json_object_set_new(j, "hops", lat_json(&st->hops));
    json_object_set_new(j, "throughput", json_pack("{s:f, s:f}", "offered", res->offered,
                                                   "accepted", res->accepted));
    json_object_set_new(j, "flit_hops", json_integer((json_int_t)st->flit_hops));
    json_object_set_new(j, "saturated", json_boolean(st->saturated));
    json_object_set_new(j, "window_filling", json_boolean(st->window_filling));
    json_object_set_new(j, "deadlock", json_boolean(res->status == NOC_RUN_DEADLOCK));
    json_object_set_new(j, "interrupted", json_boolean(res->status == NOC_RUN_INTERRUPTED));
    json_object_set_new(j, "source_queue_peak", json_integer(st->source_queue_peak));
    if (noc_sim_config(s)->max_samples > 0 || st->stopped != NOC_STOP_NONE) /* (absent otherwise: reports stay as they were) */
        sampling_json(j, st);
    json_t *tc = noc_report_tclass_json(s);
    if (tc)
        json_object_set_new(j, "traffic_classes", tc);
    if (res->sims)
        json_object_set_new(j, "sims", noc_report_sims_json(res->sims));

    json_object_set_new(j, "config", noc_report_config_json(s));
    noc_report_tables_json(j, s, 1); /* (the rows written one by one, noc_report_json) */
    json_t *nodes = noc_report_nodes_json(s);
    if (nodes)
        json_object_set_new(j, "nodes", nodes);
    json_t *energy = noc_report_energy_json(s);
    if (energy)
        json_object_set_new(j, "energy", energy);
    return j;
}

int noc_report_json(const noc_sim_t *s, const noc_run_result_t *res, const char *path, char *err,
                    size_t errlen)
{
    size_t nc = (size_t)noc_sim_n_channels(s);
    const noc_json_table_t tabs[] = { { "links", nc, noc_report_link_row, s },
                                      { "local_channels", nc, noc_report_local_row, s } };
    return noc_report_write_json_tables(run_json(s, res), tabs, 2, path, err, errlen);
}
