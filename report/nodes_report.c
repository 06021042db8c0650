/* nodes_report.c: the per-node figures of a run kept with node_stats = 1
 * (model/stats.h's noc_node_stats_t): nodes[] in the JSON, a summary line
 * naming the extremes, and the CSV of run --nodes-csv (docs/report.md). */
#include "report/report.h"
#include "report/json_internal.h"
#include "util/outfile.h"

static json_t *node_lat_json(const noc_lat_sum_t *l, const uint32_t *hist)
{
    return json_pack("{s:I, s:f, s:I, s:I, s:I}", "packets", (json_int_t)l->n, "avg", noc_lat_avg(l),
                     "p99", (json_int_t)noc_node_percentile(hist, l, 0.99), "min", (json_int_t)l->min,
                     "max", (json_int_t)l->max);
}

json_t *noc_report_nodes_json(const noc_sim_t *s)
{
    const noc_graph_t *gr = noc_sim_graph(s);
    if (!noc_sim_node_stats(s, 0))
        return NULL;
    json_t *nodes = json_array();
    for (int n = 0; n < gr->n_nodes; n++) {
        const noc_node_stats_t *ns = noc_sim_node_stats(s, n);
        char label[64];
        double bf, bv;
        noc_graph_label(gr, n, label, sizeof label);
        noc_sim_router_load_avg(s, n, &bf, &bv);
        json_array_append_new(nodes, json_pack("{s:s, s:I, s:I, s:f, s:f, s:o, s:o, s:f, s:f}", "node", label,
            "injected", (json_int_t)ns->flits_in, "accepted", (json_int_t)ns->flits_out,
            "injected_rate", (double)ns->flits_in / noc_report_window(s), "accepted_rate", (double)ns->flits_out / noc_report_window(s),
            "as_source", node_lat_json(&ns->lat_src, ns->hist_src),
            "as_destination", node_lat_json(&ns->lat_dst, ns->hist_dst),
            "buffered_avg", bf, "vcs_holding_avg", bv));
    }
    return nodes;
}

/* The node with the highest (most = 1) or lowest value of key(). */
static int extreme(const noc_sim_t *s, double (*key)(const noc_node_stats_t *), int most)
{
    int best = -1;
    double bv = 0;
    for (int n = 0; n < noc_sim_graph(s)->n_nodes; n++) {
        double v = key(noc_sim_node_stats(s, n));
        if (best < 0 || (most ? v > bv : v < bv)) {
            best = n;
            bv = v;
        }
    }
    return best;
}

static double k_in(const noc_node_stats_t *ns) { return (double)ns->flits_in; }
static double k_out(const noc_node_stats_t *ns) { return (double)ns->flits_out; }
static double k_src(const noc_node_stats_t *ns) { return noc_lat_avg(&ns->lat_src); }
static double k_dst(const noc_node_stats_t *ns) { return noc_lat_avg(&ns->lat_dst); }

/* The line of the routers' occupancy: the average over routers, and the
 * router with the most, of flits buffered and of input VCs holding flits. */
static void routers_line(FILE *f, const noc_sim_t *s)
{
    const noc_graph_t *gr = noc_sim_graph(s);
    double sum[2] = { 0, 0 }, top[2] = { -1, -1 };
    int at[2] = { 0, 0 };
    for (int n = 0; n < gr->n_nodes; n++) {
        double v[2];
        noc_sim_router_load_avg(s, n, &v[0], &v[1]);
        for (int k = 0; k < 2; k++) {
            sum[k] += v[k];
            if (v[k] > top[k]) {
                top[k] = v[k];
                at[k] = n;
            }
        }
    }
    char a[64], b[64];
    noc_graph_label(gr, at[0], a, sizeof a);
    noc_graph_label(gr, at[1], b, sizeof b);
    fprintf(f, "  routers       buffered %.3f flits on average (most %.3f at %s); input VCs holding flits %.3f (most %.3f at %s)\n",
            sum[0] / gr->n_nodes, top[0], a, sum[1] / gr->n_nodes, top[1], b);
}

void noc_report_nodes_text(FILE *f, const noc_sim_t *s)
{
    const noc_graph_t *gr = noc_sim_graph(s);
    if (!noc_sim_node_stats(s, 0))
        return;
    char a[64], b[64];
    int lo = extreme(s, k_in, 0), hi = extreme(s, k_in, 1);
    noc_graph_label(gr, lo, a, sizeof a);
    noc_graph_label(gr, hi, b, sizeof b);
    fprintf(f, "  nodes         injected %.4f at %s to %.4f at %s flits/cycle", k_in(noc_sim_node_stats(s, lo)) / noc_report_window(s),
            a, k_in(noc_sim_node_stats(s, hi)) / noc_report_window(s), b);
    lo = extreme(s, k_out, 0);
    hi = extreme(s, k_out, 1);
    noc_graph_label(gr, lo, a, sizeof a);
    noc_graph_label(gr, hi, b, sizeof b);
    fprintf(f, "; accepted %.4f at %s to %.4f at %s\n", k_out(noc_sim_node_stats(s, lo)) / noc_report_window(s), a,
            k_out(noc_sim_node_stats(s, hi)) / noc_report_window(s), b);
    const noc_node_stats_t *src = noc_sim_node_stats(s, hi = extreme(s, k_src, 1));
    noc_graph_label(gr, hi, a, sizeof a);
    const noc_node_stats_t *dst = noc_sim_node_stats(s, lo = extreme(s, k_dst, 1));
    noc_graph_label(gr, lo, b, sizeof b);
    fprintf(f, "  slowest       from %s: avg %.2f p99 %llu cycles;  to %s: avg %.2f p99 %llu cycles\n", a,
            noc_lat_avg(&src->lat_src), (unsigned long long)noc_node_percentile(src->hist_src, &src->lat_src, 0.99),
            b, noc_lat_avg(&dst->lat_dst),
            (unsigned long long)noc_node_percentile(dst->hist_dst, &dst->lat_dst, 0.99));
    routers_line(f, s);
}

const char *noc_report_nodes_csv_header(void)
{
    return "node,injected,accepted,injected_rate,accepted_rate,src_packets,src_latency_avg,src_latency_p99,"
           "src_latency_max,dst_packets,dst_latency_avg,dst_latency_p99,dst_latency_max,router_buffered_avg,"
           "router_vcs_holding_avg";
}

int noc_report_nodes_csv(const noc_sim_t *s, const char *path, char *err, size_t errlen)
{
    const noc_graph_t *gr = noc_sim_graph(s);
    if (!noc_sim_node_stats(s, 0)) {
        snprintf(err, errlen, "%s: the run kept no per-node figures (node_stats=0)", path);
        return -1;
    }
    noc_out_t o;
    if (noc_out_open(&o, path, NOC_OUT_STDOUT, err, errlen) != 0)
        return -1;
    fprintf(o.f, "%s\n", noc_report_nodes_csv_header());
    for (int n = 0; n < gr->n_nodes; n++) {
        const noc_node_stats_t *ns = noc_sim_node_stats(s, n);
        char label[64];
        double bf, bv;
        noc_graph_label(gr, n, label, sizeof label);
        noc_sim_router_load_avg(s, n, &bf, &bv);
        noc_report_csv_field(o.f, label);
        fprintf(o.f, ",%llu,%llu,%.6g,%.6g,%llu,%.6g,%llu,%llu,%llu,%.6g,%llu,%llu,%.6g,%.6g\n",
                (unsigned long long)ns->flits_in, (unsigned long long)ns->flits_out,
                (double)ns->flits_in / noc_report_window(s), (double)ns->flits_out / noc_report_window(s),
                (unsigned long long)ns->lat_src.n, noc_lat_avg(&ns->lat_src),
                (unsigned long long)noc_node_percentile(ns->hist_src, &ns->lat_src, 0.99),
                (unsigned long long)ns->lat_src.max, (unsigned long long)ns->lat_dst.n, noc_lat_avg(&ns->lat_dst),
                (unsigned long long)noc_node_percentile(ns->hist_dst, &ns->lat_dst, 0.99),
                (unsigned long long)ns->lat_dst.max, bf, bv);
    }
    return noc_out_commit(&o, err, errlen);
}
