/* bench_json.c: the JSON of noctua_bench (bench_report.h). */
#include "report/bench_report.h"
#include "report/json_internal.h"

static json_t *row_json(const noc_bench_row_t *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "id", json_integer(r->id));
    json_object_set_new(o, "spec", json_string(r->spec));
    json_object_set_new(o, "router", json_string(r->router));
    json_object_set_new(o, "packet_size", json_integer(r->packet_size));
    json_object_set_new(o, "injection_rate", json_real(r->rate));
    json_object_set_new(o, "status", json_string(r->status));
    if (r->error) {
        json_object_set_new(o, "error", json_string(r->error));
        return o;
    }
    json_object_set_new(o, "nodes", json_integer(r->nodes));
    json_object_set_new(o, "cycles", json_integer((json_int_t)r->cycles));
    json_object_set_new(o, "warmup_cycles", json_integer((json_int_t)r->warmup));
    json_object_set_new(o, "sample_cycles", json_integer((json_int_t)r->sample));
    json_object_set_new(o, "drain_cycles", json_integer((json_int_t)r->drain));
    json_object_set_new(o, "seconds", json_real(r->seconds));
    json_object_set_new(o, "cycles_per_sec", json_real(r->cps));
    json_object_set_new(o, "window_flit_hops", json_integer((json_int_t)r->flit_hops));
    json_object_set_new(o, "flit_hops_per_sec", json_real(r->hops_ps));
    json_object_set_new(o, "ns_per_node_cycle", json_real(r->ns_node_cycle));
    json_object_set_new(o, "peak_rss_mb", json_real(r->peak_mb));
    json_object_set_new(o, "start_rss_mb", json_real(r->base_mb));
    json_object_set_new(o, "offered", json_real(r->offered));
    json_object_set_new(o, "accepted", json_real(r->accepted));
    json_object_set_new(o, "saturated", json_boolean(r->saturated));
    if (r->has_target) {
        json_t *t = json_object();
        if (r->min_cps > 0)
            json_object_set_new(t, "min_cycles_per_sec", json_real(r->min_cps));
        if (r->max_mb > 0)
            json_object_set_new(t, "max_peak_rss_mb", json_real(r->max_mb));
        json_object_set_new(t, "pass", json_boolean(r->pass));
        json_object_set_new(o, "target", t);
    }
    return o;
}

int noc_report_bench_json(const noc_bench_summary_t *sum, const noc_bench_row_t *rows, int n, const char *path,
                          char *err, size_t errlen)
{
    json_t *root = json_object();
    json_object_set_new(root, "version", json_string(sum->version));
    json_object_set_new(root, "quick", json_boolean(sum->quick));
    json_object_set_new(root, "seed", json_integer(sum->seed));
    json_t *cfg = json_object();
    json_object_set_new(cfg, "traffic", json_string(sum->traffic));
    json_object_set_new(cfg, "num_vcs", json_integer(sum->num_vcs));
    json_object_set_new(cfg, "vc_buf_size", json_integer(sum->vc_buf_size));
    json_object_set_new(cfg, "routing_function", json_string(sum->routing_function));
    json_object_set_new(root, "config", cfg);
    json_t *arr = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(arr, row_json(&rows[i]));
    json_object_set_new(root, "workloads", arr);
    json_object_set_new(root, "targets", json_integer(sum->targets));
    json_object_set_new(root, "targets_met", json_integer(sum->targets_met));
    return noc_report_write_json(root, path, err, errlen);
}
