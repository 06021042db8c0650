/* run_load.c: reading back the JSON of `noctua run --json` for noctua draw
 * --load (run_load.h): its "topology", its "links" entries and those of
 * its "energy" object, checked for type only; what they mean is the
 * caller's. */
#include "report/run_load.h"
#include "report/json_internal.h"
#include "util/infile.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

/* The entries of a "links" array arr (NULL or not an array: *has 0). */
static void read_links(json_t *arr, int *has, noc_run_link_t **out, size_t *n)
{
    *has = json_is_array(arr);
    if (!*has)
        return;
    *n = json_array_size(arr);
    noc_run_link_t *links = *out = noc_xcalloc(*n ? *n : 1, sizeof *links, "draw: load");
    size_t idx;
    json_t *e;
    json_array_foreach(arr, idx, e) {
        noc_run_link_t *l = &links[idx];
        l->from = json_string_value(json_object_get(e, "from"));
        l->to = json_string_value(json_object_get(e, "to"));
        l->cls = json_string_value(json_object_get(e, "class"));
        json_t *ju = json_object_get(e, "utilisation");
        l->has_util = json_is_number(ju);
        l->util = json_number_value(ju);
        l->flits = json_integer_value(json_object_get(e, "flits"));
        json_t *jp = json_object_get(e, "total_pj");
        l->has_pj = json_is_number(jp);
        l->pj = json_number_value(jp);
    }
}

int noc_run_load(noc_run_load_t *r, const char *path, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    noc_infile_t in; /* (a directory or a device is refused by name) */
    if (noc_in_open(&in, path, "run's JSON", err, errlen) != 0)
        return -1;
    json_error_t jerr;
    json_t *run = json_loadf(in.f, 0, &jerr);
    noc_in_close(&in);
    if (!run) {
        snprintf(err, errlen, "%s:%d: %s", path, jerr.line, jerr.text);
        return -1;
    }
    r->doc = run;
    r->topology = json_string_value(json_object_get(run, "topology"));
    read_links(json_object_get(run, "links"), &r->has_links, &r->links, &r->n_links);
    const char *tables = json_string_value(json_object_get(run, "json_tables"));
    r->summarised = tables && strcmp(tables, "summary") == 0;
    json_t *en = json_object_get(run, "energy");
    read_links(json_object_get(en, "links"), &r->has_energy, &r->elinks, &r->n_elinks);
    json_t *rt = json_object_get(en, "routers");
    r->n_erouters = json_is_array(rt) ? json_array_size(rt) : 0;
    r->erouters = noc_xcalloc(r->n_erouters ? r->n_erouters : 1, sizeof *r->erouters, "draw: load");
    size_t idx;
    json_t *e;
    json_array_foreach(rt, idx, e) {
        r->erouters[idx].node = json_string_value(json_object_get(e, "node"));
        json_t *jp = json_object_get(e, "router_pj");
        r->erouters[idx].has_pj = json_is_number(jp);
        r->erouters[idx].pj = json_number_value(jp);
    }
    return 0;
}

void noc_run_load_free(noc_run_load_t *r)
{
    free(r->links);
    free(r->elinks);
    free(r->erouters);
    json_decref((json_t *)r->doc);
    memset(r, 0, sizeof *r);
}
