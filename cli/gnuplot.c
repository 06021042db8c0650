/* gnuplot.c: one picture by gnuplot (cli/gnuplot.h): the script goes to a
 * temporary beside the picture, gnuplot draws to its standard output, which
 * goes into the picture through util/outfile.h (cli/filter.h). */
#include "cli/gnuplot.h"
#include "util/ranks.h"
#include "cli/cli.h"
#include "cli/filter.h"
#include "util/outfile.h"
#include <errno.h>
#include <string.h>

#define PATH_LEN 4096

void noc_gp_str(FILE *gp, const char *s)
{
    fputc('\'', gp);
    for (; *s; s++) {
        if (*s == '\n') {
            fputs("'.\"\\n\".'", gp);
            continue;
        }
        if (*s == '\'')
            fputc('\'', gp);
        fputc(*s, gp);
    }
    fputc('\'', gp);
}

/* The script into script.tmp: 0, or -1 (errno). */
static int write_script(const char *tmp, const char *ext, int width, int height,
                        void (*figure)(FILE *gp, const void *arg), const void *arg)
{
    FILE *gp = fopen(tmp, "w");
    if (!gp)
        return -1;
    fputs("set datafile separator ','\n"
          "set grid\n", gp);
    if (strcmp(ext, "png") == 0)
        fprintf(gp, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
                    "  set terminal pngcairo noenhanced size %d,%d font ',10'\n"
                    "} else {\n"
                    "  set terminal png noenhanced size %d,%d\n"
                    "}\n", width, height, width, height);
    else
        fprintf(gp, "set terminal svg noenhanced size %d,%d dynamic background '#ffffff'\n", width, height);
    figure(gp, arg);
    int bad = ferror(gp) != 0;
    bad |= fclose(gp) != 0;
    return bad ? -1 : 0;
}

int noc_gp_draw(const char *who, const char *prefix, const char *ext, int width, int height,
                void (*figure)(FILE *gp, const void *arg), const void *arg)
{
    if (noc_ranks_rank() != 0) /* (under mpirun rank 0 draws: cli/main.c) */
        return 0;
    char path[PATH_LEN + 8], err[600];
    snprintf(path, sizeof path, "%s.%s", prefix, ext);
    noc_out_t script, o;
    if (noc_out_reserve(&script, path, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", who, err);
        return NOC_EXIT_USAGE;
    }
    if (write_script(script.tmp, ext, width, height, figure, arg) != 0) {
        fprintf(stderr, "%s: %s: cannot write gnuplot's script (%s); nothing written\n", who, path, strerror(errno));
        noc_out_abort(&script);
        return NOC_EXIT_USAGE;
    }
    if (noc_out_open(&o, path, 0, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", who, err);
        noc_out_abort(&script);
        return NOC_EXIT_USAGE;
    }
    const char *const argv[] = { "gnuplot", script.tmp, NULL };
    size_t n;
    int st = noc_cli_filter(argv, NULL, o.f, &n);
    noc_out_abort(&script);
    if (st != 0 || n == 0) {
        fprintf(stderr, "%s: warning: gnuplot failed (status %d); no %s\n", who, st, path);
        noc_out_abort(&o);
        return 1;
    }
    if (noc_out_commit(&o, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", who, err);
        return NOC_EXIT_USAGE;
    }
    return 0;
}
