/* explore_csv.c: noctua explore's CSV (report/explore.h): one line per row,
 * labels quoted, an absent figure an empty field; and a line read back
 * into a row, for --resume. */
#include "report/explore.h"
#include "report/json_internal.h"
#include "util/outfile.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define N_COLS 21

const char *noc_explore_csv_header(void)
{
    return "fabric,params,workload,status,nodes,links,links_per_node,bisection,bisection_exact,diameter,"
           "diameter_exact,vcs,router_area,total_area,cycles,energy_pj,saturation,saturation_found,zero_load_latency,"
           "pareto,error";
}

/* A label quoted; an empty one an empty field (gnuplot reads "" badly). */
static void label(FILE *f, const char *s)
{
    if (*s)
        noc_report_csv_field(f, s);
}

void noc_explore_csv_row(FILE *f, const noc_explore_row_t *r)
{
    noc_report_csv_field(f, r->fabric);
    fputc(',', f);
    label(f, r->params);
    fputc(',', f);
    noc_report_csv_field(f, r->workload);
    fprintf(f, ",%d,%d,%d,%.6f,", r->status, r->nodes, r->links, r->links_per_node);
    if (r->bisection >= 0)
        fprintf(f, "%d,%d", r->bisection, r->bisection_exact);
    else
        fputc(',', f);
    fprintf(f, ",%d,%d,%d,", r->diameter, r->diameter_exact, r->vcs);
    if (r->has_area)
        fprintf(f, "%.1f,%.1f", r->router_area, r->total_area);
    else
        fputc(',', f);
    fputc(',', f);
    if (r->has_cycles)
        fprintf(f, "%lld", r->cycles);
    fputc(',', f);
    if (r->has_energy)
        fprintf(f, "%.10g", r->energy_pj);
    if (r->has_sat)
        fprintf(f, ",%.6g,%d,%.10g", r->saturation, r->saturation_found, r->zero_load_latency);
    else
        fputs(",,,", f);
    fprintf(f, ",%d,", r->pareto);
    label(f, r->error);
    fputc('\n', f);
}

/* The fields of line into field[] (quotes taken off, "" inside a quoted
 * field one quote), written into buf; the number of fields, -1 if bad. */
static int split(const char *line, char *buf, size_t len, char *field[], int max)
{
    int n = 0;
    size_t k = 0;
    const char *p = line;
    for (;;) {
        if (n == max || k >= len)
            return -1;
        field[n++] = buf + k;
        if (*p == '"') {
            for (p++;; p++) {
                if (!*p)
                    return -1;
                if (*p == '"' && p[1] == '"')
                    p++;
                else if (*p == '"')
                    break;
                if (k + 1 >= len)
                    return -1;
                buf[k++] = *p;
            }
            p++;
        } else {
            while (*p && *p != ',' && k + 1 < len)
                buf[k++] = *p++;
        }
        buf[k++] = '\0';
        if (!*p)
            return n;
        if (*p != ',')
            return -1;
        p++;
    }
}

/* A number filling all of s (empty: *has = 0). 0, or -1 if not one. */
static int num(const char *s, double *v, int *has)
{
    char *end;
    *has = *s != '\0';
    if (!*has) {
        *v = 0;
        return 0;
    }
    errno = 0;
    *v = strtod(s, &end);
    return *end || errno ? -1 : 0;
}

int noc_explore_csv_parse(const char *line, noc_explore_row_t *r)
{
    char buf[4096], *f[N_COLS];
    if (split(line, buf, sizeof buf, f, N_COLS) != N_COLS)
        return -1;
    memset(r, 0, sizeof *r);
    if (strlen(f[0]) >= sizeof r->fabric || strlen(f[1]) >= sizeof r->params ||
        strlen(f[2]) >= sizeof r->workload || strlen(f[20]) >= sizeof r->error)
        return -1;
    strcpy(r->fabric, f[0]);
    strcpy(r->params, f[1]);
    strcpy(r->workload, f[2]);
    strcpy(r->error, f[20]);
    double v[N_COLS];
    int has[N_COLS];
    for (int c = 3; c < 20; c++)
        if (num(f[c], &v[c], &has[c]) != 0)
            return -1;
    r->status = (int)v[3];
    r->nodes = (int)v[4];
    r->links = (int)v[5];
    r->links_per_node = v[6];
    r->bisection = has[7] ? (int)v[7] : -1;
    r->bisection_exact = (int)v[8];
    r->diameter = (int)v[9];
    r->diameter_exact = (int)v[10];
    r->vcs = (int)v[11];
    r->has_area = has[12] && has[13];
    r->router_area = v[12];
    r->total_area = v[13];
    r->has_cycles = has[14];
    r->cycles = (long long)v[14];
    r->has_energy = has[15];
    r->energy_pj = v[15];
    r->has_sat = has[16];
    r->saturation = v[16];
    r->saturation_found = (int)v[17];
    r->zero_load_latency = v[18];
    r->pareto = (int)v[19];
    return 0;
}

int noc_explore_write_csv(const noc_explore_row_t *rows, int n, const char *partial, const char *path, char *err,
                          size_t errlen)
{
    noc_out_t o;
    if (noc_out_open(&o, path, 0, err, errlen) != 0)
        return -1;
    fprintf(o.f, "%s\n", noc_explore_csv_header());
    for (int i = 0; i < n; i++)
        noc_explore_csv_row(o.f, &rows[i]);
    if (partial)
        fprintf(o.f, "# %s\n", partial);
    return noc_out_commit(&o, err, errlen);
}
