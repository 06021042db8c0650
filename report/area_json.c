/* area_json.c: the JSON of the routers' gate counts: one core (noctua area
 * --json) and a fabric's routers by port count (noctua topo --area --json),
 * and the graph facts of noctua topo --json (docs/facts.md, docs/area.md). */
#include "report/report.h"
#include "report/json_internal.h"

int noc_report_area_json(const noc_area_t *a, const char *path, char *err, size_t errlen)
{
    const noc_area_params_t *p = &a->params;
    json_t *j = json_object();
    json_object_set_new(j, "core", json_string("noc_vc_router"));
    json_object_set_new(j, "params", json_pack("{s:i, s:i, s:i, s:i, s:i, s:s}", "P", p->P, "V", p->V, "DEPTH",
                                               p->depth, "FLIT_W", p->flit_w, "N_CLASS", p->n_class, "ARB",
                                               noc_area_arb_name(p->arb)));
    json_object_set_new(j, "cells", json_integer(a->cells));
    json_object_set_new(j, "nand2", json_real(a->nand2));
    json_object_set_new(j, "breakdown", json_pack("{s:I, s:I, s:I, s:I}", "nand", (json_int_t)a->nand, "not",
                                                  (json_int_t)a->inv, "ff", (json_int_t)a->ff, "other",
                                                  (json_int_t)a->other));
    json_object_set_new(j, "weights", json_pack("{s:f, s:f, s:f}", "nand", NOC_AREA_W_NAND, "not", NOC_AREA_W_NOT,
                                                "ff", NOC_AREA_W_FF));
    json_t *kinds = json_object();
    for (int k = 0; k < a->n_kinds; k++)
        json_object_set_new(kinds, a->kind[k], json_integer(a->kind_count[k]));
    json_object_set_new(j, "cell_kinds", kinds);
    json_object_set_new(j, "yosys", json_string(a->yosys));
    json_object_set_new(j, "cached", json_boolean(a->cached));
    json_object_set_new(j, "cache_file", json_string(a->path));
    json_object_set_new(j, "synthesis_seconds", json_real(a->seconds));
    return noc_report_write_json(j, path, err, errlen);
}

static json_t *area_json(const noc_topo_t *t, const noc_fabric_area_t *a)
{
    json_t *j = json_object();
    json_object_set_new(j, "core", json_string("noc_vc_router"));
    json_object_set_new(j, "params", json_pack("{s:i, s:i, s:i, s:i, s:s}", "V", a->p.V, "DEPTH", a->p.depth,
                                               "FLIT_W", a->p.flit_w, "N_CLASS", a->p.n_class, "ARB",
                                               noc_area_arb_name(a->p.arb)));
    json_object_set_new(j, "vc_classes_needed", json_integer(a->classes_needed));
    json_t *arr = json_array();
    for (int k = 0; k < a->n_groups; k++) {
        const noc_area_group_t *g = &a->g[k];
        json_t *e = json_pack("{s:i, s:i, s:I, s:f, s:f}", "ports", g->ports, "routers", g->routers, "cells",
                              (json_int_t)g->a.cells, "nand2", g->a.nand2, "nand2_total", g->a.nand2 * g->routers);
        json_object_set_new(e, "breakdown", json_pack("{s:I, s:I, s:I, s:I}", "nand", (json_int_t)g->a.nand, "not",
                                                      (json_int_t)g->a.inv, "ff", (json_int_t)g->a.ff, "other",
                                                      (json_int_t)g->a.other));
        json_object_set_new(e, "cache_file", json_string(g->a.path));
        json_array_append_new(arr, e);
    }
    json_object_set_new(j, "by_ports", arr);
    json_object_set_new(j, "cells", json_integer(a->cells));
    json_object_set_new(j, "nand2", json_real(a->nand2));
    json_object_set_new(j, "nand2_per_node", json_real(a->nand2 / noc_topo_nodes(t)));
    return j;
}

static json_t *facts_json(const noc_topo_t *t, const noc_facts_t *f, const noc_fabric_area_t *a)
{
    json_t *j = json_object();
    json_object_set_new(j, "spec", json_string(noc_topo_spec(t)));
    json_object_set_new(j, "kind", json_string(noc_topo_kind(t)));
    json_object_set_new(j, "nodes", json_integer(f->nodes));
    if (noc_topo_concentrated(t))
        json_object_set_new(j, "terminals", json_integer(noc_topo_terminals(t)));
    json_object_set_new(j, "links", json_integer(f->links));
    json_object_set_new(j, "channels", json_integer(2 * (json_int_t)f->links));
    json_t *cls = json_object();
    for (int k = 0; k < noc_topo_classes(t); k++)
        json_object_set_new(cls, noc_topo_class_name(t, k), json_integer(f->class_links[k]));
    json_object_set_new(j, "links_per_class", cls);
    json_object_set_new(j, "degree", json_pack("{s:i, s:i, s:f}", "min", f->degree_min,
                                               "max", f->degree_max, "avg", f->degree_avg));
    json_object_set_new(j, "connected", json_boolean(f->connected));
    json_object_set_new(j, "diameter", f->connected ? json_integer(f->diameter) : json_null());
    json_object_set_new(j, "avg_distance", f->connected ? json_real(f->avg_distance) : json_null());
    json_object_set_new(j, "distances", json_pack("{s:b, s:i}", "exact", f->distance_exact,
                                                  "sources", f->distance_sources));
    if (f->bisection >= 0) {
        json_t *b = json_pack("{s:i, s:b, s:s}", "value", f->bisection, "exact", f->bisection_exact,
                              "method", noc_facts_method_name(f->bisection_method));
        if (!f->bisection_exact)
            json_object_set_new(b, "metis_runs", json_integer(f->bisection_runs));
        json_object_set_new(j, "bisection", b);
    } else {
        json_object_set_new(j, "bisection", json_null());
    }
    json_object_set_new(j, "links_per_node", json_real(f->links_per_node));
    json_object_set_new(j, "degree_x_diameter",
                        f->degree_x_diameter >= 0 ? json_integer(f->degree_x_diameter) : json_null());
    if (a->n_groups)
        json_object_set_new(j, "area", area_json(t, a));
    return j;
}

int noc_report_topo_json(const noc_topo_column_t *cols, int n, const char *path, char *err, size_t errlen)
{
    json_t *arr = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(arr, facts_json(cols[i].t, &cols[i].f, &cols[i].area));
    return noc_report_write_json(arr, path, err, errlen);
}
