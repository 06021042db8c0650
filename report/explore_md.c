/* explore_md.c: noctua explore's Markdown summary (report/explore.h): the
 * command that made it, then per workload a table of its rows with the
 * Pareto front marked, then the rows that did not run and why. */
#include "report/explore.h"
#include "util/outfile.h"
#include "util/version.h"
#include <string.h>

/* Has a row before i the workload of row i? */
static int seen_before(const noc_explore_row_t *rows, int i)
{
    for (int j = 0; j < i; j++)
        if (strcmp(rows[j].workload, rows[i].workload) == 0)
            return 1;
    return 0;
}

/* s with the characters Markdown tables take as syntax escaped. */
static void md_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|' || *s == '*' || *s == '_' || *s == '<' || *s == '>' || *s == '`')
            fputc('\\', f);
        fputc(*s, f);
    }
}

static void md_row(FILE *f, const noc_explore_row_t *r, int synthetic)
{
    fputs("| ", f);
    md_text(f, r->fabric);
    fputs(" | ", f);
    md_text(f, r->params[0] ? r->params : "-");
    fprintf(f, " | %d | %d | %.3f | ", r->nodes, r->links, r->links_per_node);
    if (r->bisection < 0)
        fputs("-", f);
    else
        fprintf(f, "%s%d", r->bisection_exact ? "" : "&le; ", r->bisection);
    fprintf(f, " | %s%d | ", r->diameter_exact ? "" : "&ge; ", r->diameter);
    if (r->has_area)
        fprintf(f, "%.1f | %.1f | ", r->router_area, r->total_area);
    else
        fputs("- | - | ", f);
    if (synthetic && r->has_sat)
        fprintf(f, "%s%.4g | %.1f | ", r->saturation_found ? "" : "&ge; ", r->saturation, r->zero_load_latency);
    else if (synthetic)
        fputs("- | - | ", f);
    else if (r->has_cycles)
        fprintf(f, "%lld | ", r->cycles);
    else
        fputs("- | ", f);
    if (synthetic)
        ;
    else if (r->has_energy)
        fprintf(f, "%.1f | ", r->energy_pj);
    else
        fputs("- | ", f);
    fprintf(f, "%s |\n", r->pareto ? "**yes**" : "");
}

static void workload_table(FILE *f, const noc_explore_row_t *rows, int n, int first, unsigned objs)
{
    char obj[160];
    noc_explore_objectives_text(objs & ~(unsigned)NOC_EXPLORE_OBJ_SATURATION, obj, sizeof obj);
    fputs("\n## ", f);
    md_text(f, rows[first].workload);
    int synthetic = (objs & NOC_EXPLORE_OBJ_SATURATION) != 0;
    fprintf(f, "\n\nPareto front: %sminimising %s.\n\n", synthetic ? "maximising saturation, " : "", obj);
    fprintf(f, "| fabric | params | nodes | links | links/node | bisection | diameter | router area | total area | "
               "%s | Pareto |\n", synthetic ? "saturation (flits/node/cycle) | zero-load latency" : "cycles | energy (pJ)");
    fputs("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|\n", f);
    for (int i = first; i < n; i++)
        if (rows[i].status == 0 && strcmp(rows[i].workload, rows[first].workload) == 0)
            md_row(f, &rows[i], synthetic);
}

int noc_explore_write_md(const noc_explore_row_t *rows, int n, const unsigned *objs, const char *command,
                         const char *partial, const char *path, char *err, size_t errlen)
{
    noc_out_t o;
    if (noc_out_open(&o, path, 0, err, errlen) != 0)
        return -1;
    FILE *f = o.f;
    fprintf(f, "# Architecture exploration\n\nMade by noctua %s with:\n\n```sh\n%s\n```\n", noc_version(), command);
    if (partial)
        fprintf(f, "\n**Partial:** %s.\n", partial);
    fputs("\nRouter area and total area are NAND2 equivalents of the router cores (docs/area.md; links not\n"
          "counted); bisection \"&le;\" is an upper bound, diameter \"&ge;\" a lower bound (docs/facts.md).\n"
          "A row is on the Pareto front when no other row of its workload is as good in every\n"
          "objective and better in one (docs/exploration.md).\n", f);
    for (int i = 0; i < n; i++)
        if (!seen_before(rows, i))
            workload_table(f, rows, n, i, objs[i]);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        if (rows[i].status == 0)
            continue;
        if (!bad++)
            fputs("\n## Rows that did not run\n\n", f);
        fputs("- ", f);
        md_text(f, rows[i].fabric);
        fputs(rows[i].params[0] ? " " : "", f);
        md_text(f, rows[i].params);
        fputs(", ", f);
        md_text(f, rows[i].workload);
        fprintf(f, " (status %d): ", rows[i].status);
        md_text(f, rows[i].error);
        fputc('\n', f);
    }
    return noc_out_commit(&o, err, errlen);
}
