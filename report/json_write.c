/* json_write.c: writing a JSON document to a file or stdout through
 * noctua's checked output (util/outfile.h), and jansson's allocator. */
#include "report/report.h"
#include "report/json_internal.h"
#include "util/outfile.h"
#include "util/xalloc.h"
#include <stdlib.h>

static void *json_alloc(size_t n)
{
    return noc_xmalloc(n, "building a JSON report");
}

void noc_report_init(void)
{
    json_set_alloc_funcs(json_alloc, free);
}

int noc_report_write_json(json_t *j, const char *path, char *err, size_t errlen)
{
    noc_out_t o;
    if (noc_out_open(&o, path, NOC_OUT_STDOUT, err, errlen) != 0) {
        json_decref(j);
        return -1;
    }
    int bad = json_dumpf(j, o.f, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) != 0;
    json_decref(j);
    fputc('\n', o.f);
    if (bad && !ferror(o.f)) {
        noc_out_abort(&o);
        snprintf(err, errlen, "%s: the JSON report could not be encoded", path);
        return -1;
    }
    return noc_out_commit(&o, err, errlen); /* a failed write is told here */
}
