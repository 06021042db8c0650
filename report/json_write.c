/* json_write.c: writing a JSON document to a file or stdout through
 * noctua's checked output (util/outfile.h), and jansson's allocator; a
 * document with tables written row by row (noc_report_write_json_tables),
 * in the very bytes jansson would write for the whole tree. */
#include "report/report.h"
#include "report/json_internal.h"
#include "util/outfile.h"
#include "util/xalloc.h"
#include <stdlib.h>
#include <string.h>

static void *json_alloc(size_t n)
{
    return noc_xmalloc(n, "building a JSON report");
}

void noc_report_init(void)
{
    json_set_alloc_funcs(json_alloc, free);
}

#define DUMP_FLAGS (JSON_INDENT(2) | JSON_REAL_PRECISION(10) | JSON_ENCODE_ANY)

/* jansson's output of a value, indented as the value of a key `depth`
 * levels down: every line break followed by 2 * depth more spaces (a JSON
 * string holds no raw line break). */
typedef struct indent {
    FILE *f;
    int depth;
} indent_t;

static int indent_out(const char *buf, size_t n, void *data)
{
    const indent_t *in = data;
    for (size_t i = 0; i < n; i++) {
        if (putc(buf[i], in->f) == EOF)
            return -1;
        if (buf[i] == '\n' && fprintf(in->f, "%*s", 2 * in->depth, "") < 0)
            return -1;
    }
    return 0;
}

static int dump_at(json_t *v, FILE *f, int depth)
{
    indent_t in = { f, depth };
    return json_dump_callback(v, indent_out, &in, DUMP_FLAGS);
}

/* The table of j's key k, if one of tabs[0 .. nt-1] is: written as the
 * array of its rows, each built, written and released in turn. */
static const noc_json_table_t *table_of(const char *k, const noc_json_table_t *tabs, int nt)
{
    for (int i = 0; i < nt; i++)
        if (strcmp(k, tabs[i].key) == 0)
            return &tabs[i];
    return NULL;
}

static int dump_tables(json_t *j, FILE *f, const noc_json_table_t *tabs, int nt)
{
    const char *k;
    json_t *v;
    int first = 1, bad = 0;
    if (json_object_size(j) == 0)
        return json_dumpf(j, f, DUMP_FLAGS);
    fputs("{", f);
    json_object_foreach(j, k, v) {
        fputs(first ? "\n  " : ",\n  ", f);
        first = 0;
        json_t *name = json_string(k);
        bad |= dump_at(name, f, 1);
        json_decref(name);
        fputs(": ", f);
        const noc_json_table_t *tab = table_of(k, tabs, nt);
        if (!tab) {
            bad |= dump_at(v, f, 1);
            continue;
        }
        int rows = 0;
        for (size_t i = 0; i < tab->n && !bad; i++) {
            json_t *r = tab->row(tab->ctx, i);
            if (!r)
                continue;
            fputs(rows++ ? ",\n    " : "[\n    ", f);
            bad |= dump_at(r, f, 2);
            json_decref(r);
        }
        fputs(rows ? "\n  ]" : "[]", f);
    }
    fputs("\n}", f);
    return bad ? -1 : 0;
}

int noc_report_write_json(json_t *j, const char *path, char *err, size_t errlen)
{
    return noc_report_write_json_tables(j, NULL, 0, path, err, errlen);
}

int noc_report_write_json_tables(json_t *j, const noc_json_table_t *tabs, int nt, const char *path, char *err,
                                 size_t errlen)
{
    noc_out_t o;
    if (noc_out_open(&o, path, NOC_OUT_STDOUT, err, errlen) != 0) {
        json_decref(j);
        return -1;
    }
    int bad = nt > 0 ? dump_tables(j, o.f, tabs, nt) != 0
                     : json_dumpf(j, o.f, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) != 0;
    json_decref(j);
    fputc('\n', o.f);
    if (bad && !ferror(o.f)) {
        noc_out_abort(&o);
        snprintf(err, errlen, "%s: the JSON report could not be encoded", path);
        return -1;
    }
    return noc_out_commit(&o, err, errlen); /* a failed write is told here */
}
