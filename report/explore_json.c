/* explore_json.c: noctua explore's JSON (report/explore.h): the command,
 * the rows (the CSV's columns; an absent figure null), and per workload
 * the objectives of its Pareto front. */
#include "report/explore.h"
#include "report/json_internal.h"
#include "util/version.h"
#include <string.h>

static json_t *opt_real(int has, double v)
{
    return has ? json_real(v) : json_null();
}

static json_t *row_json(const noc_explore_row_t *r)
{
    json_t *j = json_object();
    json_object_set_new(j, "fabric", json_string(r->fabric));
    json_object_set_new(j, "params", json_string(r->params));
    json_object_set_new(j, "workload", json_string(r->workload));
    json_object_set_new(j, "status", json_integer(r->status));
    if (r->error[0])
        json_object_set_new(j, "error", json_string(r->error));
    json_object_set_new(j, "nodes", json_integer(r->nodes));
    json_object_set_new(j, "links", json_integer(r->links));
    json_object_set_new(j, "links_per_node", json_real(r->links_per_node));
    json_object_set_new(j, "bisection", r->bisection >= 0 ? json_integer(r->bisection) : json_null());
    json_object_set_new(j, "bisection_exact", json_boolean(r->bisection >= 0 && r->bisection_exact));
    json_object_set_new(j, "diameter", json_integer(r->diameter));
    json_object_set_new(j, "diameter_exact", json_boolean(r->diameter_exact));
    json_object_set_new(j, "vcs", json_integer(r->vcs));
    json_object_set_new(j, "router_area", opt_real(r->has_area, r->router_area));
    json_object_set_new(j, "total_area", opt_real(r->has_area, r->total_area));
    json_object_set_new(j, "cycles", r->has_cycles ? json_integer((json_int_t)r->cycles) : json_null());
    json_object_set_new(j, "energy_pj", opt_real(r->has_energy, r->energy_pj));
    json_object_set_new(j, "saturation", opt_real(r->has_sat, r->saturation));
    json_object_set_new(j, "saturation_found", r->has_sat ? json_boolean(r->saturation_found) : json_null());
    json_object_set_new(j, "zero_load_latency", opt_real(r->has_sat, r->zero_load_latency));
    json_object_set_new(j, "pareto", json_boolean(r->pareto));
    return j;
}

/* {workload: [objective, ...]}, in the order the workloads first appear. */
static json_t *fronts_json(const noc_explore_row_t *rows, int n, const unsigned *objs)
{
    json_t *j = json_object();
    for (int i = 0; i < n; i++) {
        if (json_object_get(j, rows[i].workload))
            continue;
        static const char *const name[] = { "cycles", "links", "total_area", "energy_pj", "saturation",
                                            "zero_load_latency" };
        json_t *a = json_array();
        for (int b = 0; b < 6; b++)
            if (objs[i] & (1u << b))
                json_array_append_new(a, json_string(name[b]));
        json_object_set_new(j, rows[i].workload, a);
    }
    return j;
}

int noc_explore_write_json(const noc_explore_row_t *rows, int n, const unsigned *objs, const char *command,
                           const char *partial, const char *path, char *err, size_t errlen)
{
    json_t *j = json_object();
    json_object_set_new(j, "noctua", json_string(noc_version()));
    json_object_set_new(j, "command", json_string(command));
    json_object_set_new(j, "partial", partial ? json_string(partial) : json_null());
    json_object_set_new(j, "objectives", fronts_json(rows, n, objs));
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, row_json(&rows[i]));
    json_object_set_new(j, "rows", a);
    return noc_report_write_json(j, path, err, errlen);
}
