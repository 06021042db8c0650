/* run_load.c: reading back the JSON of `noctua run --json` for noctua draw
 * --load (run_load.h): its "topology" and its "links" entries, checked for
 * type only; what they mean is the caller's. */
#include "report/run_load.h"
#include "report/json_internal.h"
#include "util/infile.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

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
    json_t *arr = json_object_get(run, "links");
    r->has_links = json_is_array(arr);
    if (!r->has_links)
        return 0;
    r->n_links = json_array_size(arr);
    r->links = noc_xcalloc(r->n_links ? r->n_links : 1, sizeof *r->links, "draw: load");
    size_t idx;
    json_t *e;
    json_array_foreach(arr, idx, e) {
        noc_run_link_t *l = &r->links[idx];
        l->from = json_string_value(json_object_get(e, "from"));
        l->to = json_string_value(json_object_get(e, "to"));
        l->cls = json_string_value(json_object_get(e, "class"));
        json_t *ju = json_object_get(e, "utilisation");
        l->has_util = json_is_number(ju);
        l->util = json_number_value(ju);
        l->flits = json_integer_value(json_object_get(e, "flits"));
    }
    return 0;
}

void noc_run_load_free(noc_run_load_t *r)
{
    free(r->links);
    json_decref((json_t *)r->doc);
    memset(r, 0, sizeof *r);
}
