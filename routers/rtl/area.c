/* area.c: the router core's gate counts by synthesis with yosys (area.h).
 *
 * One synthesis per parameter set: yosys reads every .sv file of rtl/ (the
 * package first), sets the core's parameters, and runs the script of
 * tools/rtl_area.sh (`synth -flatten -top noc_vc_router; abc -g NAND;
 * opt_clean; stat`), so both give the same cells. Its last `stat` block is
 * parsed into counts per cell kind. The counts go into a small text file in
 * the cache directory, named by the parameters and a hash of rtl/ and of
 * the script (an edited core is synthesized again, never read stale):
 * <cache>/area-p5-v2-d8-w64-c1-rr-<hash>.txt, with yosys's log beside it
 * (.log). The NAND2 equivalents are computed from the counts when read, so
 * the weights (area.h) are not part of the cache. yosys is run with
 * fork/exec in the source tree, with relative paths: no shell, no quoting. */
#include "util/xalloc.h"
#include "routers/rtl/area.h"
#include "util/fsutil.h"
#include "util/child.h"
#include "model/config.h"
#include "routers/rtl/rtl_model.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TOP "noc_vc_router"
/* Appended after the parameters: the part of the script that tools/rtl_area.sh shares. */
#define SCRIPT_TAIL "synth -flatten -top " TOP "; abc -g NAND; opt_clean; stat"
#define CACHE_MAGIC "# noctua area 1"

/* ---- parameters ------------------------------------------------------------- */

void noc_area_params_default(noc_area_params_t *p)
{
    noc_config_t cfg;
    noc_config_defaults(&cfg);
    p->P = 5;
    p->V = 2;
    p->depth = (int)cfg.vc_buf_size;
    p->flit_w = (int)cfg.flit_width;
    p->n_class = 1;
    p->arb = 0;
}

const char *noc_area_arb_name(int arb)
{
    return arb ? "matrix" : "round_robin";
}

static const char *const param_names[] = { "P", "V", "DEPTH", "FLIT_W", "N_CLASS", "ARB" };
enum { NAMES = (int)(sizeof param_names / sizeof param_names[0]) };

/* Index of arg's NAME in param_names, or -1. */
static int param_index(const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (!eq)
        return -1;
    size_t n = (size_t)(eq - arg);
    for (int i = 0; i < NAMES; i++)
        if (strlen(param_names[i]) == n && strncmp(arg, param_names[i], n) == 0)
            return i;
    return -1;
}

int noc_area_is_param(const char *arg, int allow_p)
{
    int i = param_index(arg);
    return i > 0 || (i == 0 && allow_p);
}

int noc_area_param_set(noc_area_params_t *p, const char *arg, int allow_p, int *n_class_set,
                       char *err, size_t errlen)
{
    int i = param_index(arg);
    if (i < 0 || (i == 0 && !allow_p)) {
        snprintf(err, errlen, "'%s': expected NAME=VALUE with NAME one of %sV, DEPTH, FLIT_W, N_CLASS, ARB", arg,
                 allow_p ? "P, " : "");
        return -1;
    }
    const char *v = strchr(arg, '=') + 1;
    if (i == 5) {
        if (strcmp(v, "round_robin") == 0 || strcmp(v, "rr") == 0 || strcmp(v, "0") == 0)
            p->arb = 0;
        else if (strcmp(v, "matrix") == 0 || strcmp(v, "1") == 0)
            p->arb = 1;
        else {
            snprintf(err, errlen, "ARB: '%s' is not an arbiter (round_robin or matrix)", v);
            return -1;
        }
        return 0;
    }
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (!*v || *end || errno || x < 0 || x > 1000000) {
        snprintf(err, errlen, "%s: '%s' is not a whole number", param_names[i], v);
        return -1;
    }
    int *dst[] = { &p->P, &p->V, &p->depth, &p->flit_w, &p->n_class };
    *dst[i] = (int)x;
    if (i == 4 && n_class_set)
        *n_class_set = 1;
    return 0;
}

int noc_area_params_check(const noc_area_params_t *p, char *err, size_t errlen)
{
    struct { const char *name; int v, hi; } r[] = {
        { "P", p->P, NOC_AREA_MAX_P }, { "V", p->V, NOC_AREA_MAX_V },
        { "DEPTH", p->depth, NOC_AREA_MAX_DEPTH }, { "FLIT_W", p->flit_w, NOC_AREA_MAX_FLIT_W },
    };
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
        if (r[i].v < 1 || r[i].v > r[i].hi) {
            snprintf(err, errlen, "%s=%d: from 1 to %d", r[i].name, r[i].v, r[i].hi);
            return -1;
        }
    if (p->n_class < 1 || p->n_class > p->V) {
        snprintf(err, errlen, "N_CLASS=%d: from 1 to V (%d): every VC class owns at least one VC", p->n_class,
                 p->V);
        return -1;
    }
    if (p->arb != 0 && p->arb != 1) {
        snprintf(err, errlen, "ARB: round_robin or matrix");
        return -1;
    }
    return 0;
}

/* ---- where things are --------------------------------------------------------- */

const char *noc_area_source_dir(void)
{
    const char *env = getenv("NOCTUA_SOURCE_DIR");
    return env && *env ? env : noc_rtl_source_dir();
}

void noc_area_cache_dir(char *buf, size_t len)
{
    const char *rtl = noc_rtl_model_cache();
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (rtl && *rtl)
        snprintf(buf, len, "%s", rtl);
    else if (xdg && *xdg)
        snprintf(buf, len, "%s/noctua", xdg);
    else
        snprintf(buf, len, "%s/.cache/noctua", home && *home ? home : "/tmp");
}

/* The full path of `name` on $PATH into buf, or -1. */
static int find_program(const char *name, char *buf, size_t len)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        return -1;
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        snprintf(buf, len, "%.*s/%s", (int)n, n ? path : ".", name);
        if (access(buf, X_OK) == 0)
            return 0;
        path += n + (colon ? 1 : 0);
    }
    return -1;
}

/* ---- the sources ------------------------------------------------------------- */

/* The .sv files of src/rtl/, relative ("rtl/noc_pkg.sv" first, then sorted) into
 * one string of blank-separated names (the read_verilog arguments), and a
 * hash of their names and contents and of the script. */
static int sources(const char *src, char *files, size_t flen, uint64_t *hash, char *err, size_t errlen)
{
    char pat[1100];
    glob_t g;
    snprintf(pat, sizeof pat, "%s/rtl/*.sv", src);
    if (glob(pat, 0, NULL, &g) != 0) {
        snprintf(err, errlen, "no RTL sources: %s matches nothing (set NOCTUA_SOURCE_DIR to a noctua source tree)",
                 pat);
        return -1;
    }
    uint64_t h = NOC_FNV_SEED;
    noc_fnv(&h, SCRIPT_TAIL, sizeof SCRIPT_TAIL);
    size_t used = 0;
    files[0] = '\0';
    int rc = 0;
    for (int pass = 0; pass < 2 && rc == 0; pass++)
        for (size_t i = 0; i < g.gl_pathc && rc == 0; i++) {
            const char *base = strrchr(g.gl_pathv[i], '/') + 1;
            int pkg = strcmp(base, "noc_pkg.sv") == 0;
            if (pkg != (pass == 0))
                continue;
            if (strpbrk(base, " \t\n;\"'\\")) {
                snprintf(err, errlen, "%s: a name yosys's script cannot take", g.gl_pathv[i]);
                rc = -1;
                break;
            }
            int k = snprintf(files + used, flen - used, "%srtl/%s", used ? " " : "", base);
            if (k < 0 || (size_t)k >= flen - used) {
                snprintf(err, errlen, "too many RTL sources under %s/rtl", src);
                rc = -1;
                break;
            }
            used += (size_t)k;
            noc_fnv(&h, base, strlen(base) + 1);
            if (noc_fnv_file(&h, g.gl_pathv[i]) != 0) {
                snprintf(err, errlen, "cannot read %s: %s", g.gl_pathv[i], strerror(errno));
                rc = -1;
                break;
            }
        }
    globfree(&g);
    *hash = h;
    return rc;
}

/* ---- counts -------------------------------------------------------------------- */

/* Is a yosys flip-flop kind one with an enable? Its name's first word
 * ends in E: $_DFFE_PP_, $_DFFE_PN0P_, $_SDFFE_..., $_SDFFCE_...,
 * $_DFFSRE_..., $_ALDFFE_... (not $_DFF_P_, $_DFF_PN0_, $_DFFSR_...). */
static int ff_enable(const char *kind)
{
    const char *w = kind + 2, *end = strchr(w, '_');
    return end && end > w && end[-1] == 'E';
}

static void add_kind(noc_area_t *a, const char *kind, long n)
{
    if (a->n_kinds < NOC_AREA_MAX_KINDS) {
        snprintf(a->kind[a->n_kinds], sizeof a->kind[0], "%s", kind);
        a->kind_count[a->n_kinds++] = n;
    }
    if (strcmp(kind, "$_NAND_") == 0)
        a->nand += n;
    else if (strcmp(kind, "$_NOT_") == 0)
        a->inv += n;
    else if (strncmp(kind, "$_", 2) == 0 && strstr(kind, "DFF")) {
        a->ff += n;
        if (ff_enable(kind))
            a->ff_enable += n;
    } else
        a->other += n;
}

static void clear_counts(noc_area_t *a)
{
    a->cells = a->nand = a->inv = a->ff = a->ff_enable = a->other = 0;
    a->n_kinds = 0;
}

static void weigh(noc_area_t *a)
{
    a->nand2 = (double)a->nand * NOC_AREA_W_NAND + (double)a->inv * NOC_AREA_W_NOT + (double)a->ff * NOC_AREA_W_FF;
}

/* The last statistics block of a yosys log, and its version line. */
static int parse_log(const char *log, noc_area_t *a)
{
    FILE *f = fopen(log, "r");
    if (!f)
        return -1;
    char line[512];
    int in_cells = 0, found = 0;
    while (fgets(line, sizeof line, f)) {
        long n;
        char kind[64];
        if (sscanf(line, " Number of cells: %ld", &n) == 1) {
            clear_counts(a);
            a->cells = n;
            in_cells = found = 1;
        } else if (in_cells && sscanf(line, " %63s %ld", kind, &n) == 2 && kind[0] == '$') {
            add_kind(a, kind, n);
        } else {
            in_cells = 0;
            if (strncmp(line, "Yosys ", 6) == 0) {
                line[strcspn(line, "\n")] = '\0';
                snprintf(a->yosys, sizeof a->yosys, "%.63s", line);
            }
        }
    }
    fclose(f);
    return found ? 0 : -1;
}

/* Read a cache file. 0 when it is one and holds counts. */
static int read_cache(const char *path, noc_area_t *a)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[512];
    int ok = fgets(line, sizeof line, f) && strncmp(line, CACHE_MAGIC, strlen(CACHE_MAGIC)) == 0;
    int have_cells = 0;
    clear_counts(a);
    while (ok && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        long n;
        char kind[64];
        if (strncmp(line, "yosys ", 6) == 0)
            snprintf(a->yosys, sizeof a->yosys, "%.63s", line + 6);
        else if (sscanf(line, "seconds %lf", &a->seconds) == 1)
            ;
        else if (sscanf(line, "cells %ld", &n) == 1)
            a->cells = n, have_cells = 1;
        else if (sscanf(line, "cell %63s %ld", kind, &n) == 2)
            add_kind(a, kind, n);
    }
    fclose(f);
    if (!ok || !have_cells)
        return -1;
    weigh(a);
    return 0;
}

static int write_cache(const char *path, const noc_area_t *a)
{
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    const noc_area_params_t *p = &a->params;
    fprintf(f, "%s: %s synthesized by yosys (docs/area.md)\n", CACHE_MAGIC, TOP);
    fprintf(f, "params P=%d V=%d DEPTH=%d FLIT_W=%d N_CLASS=%d ARB=%s\n", p->P, p->V, p->depth, p->flit_w,
            p->n_class, noc_area_arb_name(p->arb));
    fprintf(f, "yosys %s\nseconds %.2f\ncells %ld\n", a->yosys, a->seconds, a->cells);
    for (int k = 0; k < a->n_kinds; k++)
        fprintf(f, "cell %s %ld\n", a->kind[k], a->kind_count[k]);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* ---- synthesis ------------------------------------------------------------------ */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Run yosys on script in src, everything it prints into log. Returns its
 * exit status, or -1 if it could not be started. */
static int run_yosys(const char *yosys, const char *src, const char *script, const char *log)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (fd < 0)
            _exit(126);
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
        int in = open("/dev/null", O_RDONLY);
        if (in >= 0) {
            dup2(in, 0);
            close(in);
        }
        if (chdir(src) != 0)
            _exit(126);
        execl(yosys, "yosys", "-p", script, (char *)NULL);
        _exit(127);
    }
    int st;
    if (noc_child_wait(pid, "synthesizing with yosys", &st) != 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static int synthesize(const char *src, const char *files, noc_area_t *a, char *err, size_t errlen)
{
    char yosys[1024];
    if (find_program("yosys", yosys, sizeof yosys) != 0) {
        snprintf(err, errlen, "yosys is not installed (Debian: apt-get install yosys); `noctua area` "
                 "synthesizes the router core with it");
        return NOC_AREA_EUSAGE;
    }
    const noc_area_params_t *p = &a->params;
    size_t len = strlen(files) + 512;
    char *script = noc_xmalloc(len, "yosys script");
    snprintf(script, len,
             "read_verilog -sv %s; chparam -set P %d -set V %d -set DEPTH %d -set FLIT_W %d -set N_CLASS %d "
             "-set ARB_KIND %d " TOP "; " SCRIPT_TAIL,
             files, p->P, p->V, p->depth, p->flit_w, p->n_class, p->arb);
    fprintf(stderr, "noctua: synthesizing %s P=%d V=%d DEPTH=%d FLIT_W=%d N_CLASS=%d ARB=%s with yosys "
            "(once; cached in %s)\n", TOP, p->P, p->V, p->depth, p->flit_w, p->n_class,
            noc_area_arb_name(p->arb), a->path);
    double t0 = now();
    int st = run_yosys(yosys, src, script, a->log);
    a->seconds = now() - t0;
    free(script);
    if (st != 0) {
        snprintf(err, errlen, "yosys failed (%s %d); its log: %s", st < 0 ? "not started" : "status",
                 st, a->log);
        return NOC_AREA_EFAILED;
    }
    double seconds = a->seconds;
    if (parse_log(a->log, a) != 0) {
        snprintf(err, errlen, "no cell statistics in yosys's log %s", a->log);
        return NOC_AREA_EFAILED;
    }
    a->seconds = seconds;
    weigh(a);
    if (write_cache(a->path, a) != 0)
        fprintf(stderr, "noctua: warning: cannot write the area cache %s: %s\n", a->path, strerror(errno));
    return NOC_AREA_OK;
}

int noc_area_get(const noc_area_params_t *p, noc_area_t *a, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    a->params = *p;
    if (noc_area_params_check(p, err, errlen) != 0)
        return NOC_AREA_EUSAGE;
    const char *src = noc_area_source_dir();
    if (!src) {
        snprintf(err, errlen, "the RTL sources are unknown: this noctua was built without Verilator; set "
                 "NOCTUA_SOURCE_DIR to a noctua source tree");
        return NOC_AREA_EUSAGE;
    }
    char files[8192], dir[1024];
    uint64_t h;
    if (sources(src, files, sizeof files, &h, err, errlen) != 0)
        return NOC_AREA_EUSAGE;
    noc_area_cache_dir(dir, sizeof dir);
    char base[1000];
    int k = snprintf(base, sizeof base, "%s/area-p%d-v%d-d%d-w%d-c%d-%s-%016llx", dir, p->P, p->V, p->depth,
                     p->flit_w, p->n_class, p->arb ? "mx" : "rr", (unsigned long long)h);
    if (k < 0 || (size_t)k + 8 > sizeof base) {
        snprintf(err, errlen, "the cache directory's name is too long: %s", dir);
        return NOC_AREA_EUSAGE;
    }
    snprintf(a->path, sizeof a->path, "%s.txt", base);
    snprintf(a->log, sizeof a->log, "%s.log", base);
    if (read_cache(a->path, a) == 0) {
        a->cached = 1;
        return NOC_AREA_OK;
    }

    if (noc_mkdir_p(dir) != 0) {
        snprintf(err, errlen, "cannot create the cache directory %s: %s (set NOCTUA_RTL_CACHE or XDG_CACHE_HOME)",
                 dir, strerror(errno));
        return NOC_AREA_EUSAGE;
    }
    char lock[1100];
    snprintf(lock, sizeof lock, "%s.lock", base);
    int fd = noc_lock_file(lock);
    if (fd < 0) {
        snprintf(err, errlen, "cannot lock %s: %s", lock, strerror(errno));
        return NOC_AREA_EUSAGE;
    }
    int rc;
    if (read_cache(a->path, a) == 0) { /* another run made it while we waited */
        a->cached = 1;
        rc = NOC_AREA_OK;
    } else {
        rc = synthesize(src, files, a, err, errlen);
    }
    noc_unlock_file(fd);
    return rc;
}
