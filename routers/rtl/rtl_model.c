/* rtl_model.c: find, build and load a Verilated router core (rtl_model.h).
 *
 * A model is named by its parameters and a hash of everything it is made
 * from (rtl/, the shim, the ABI header, the build script), so an edited core
 * is rebuilt, never loaded stale: <cache>/core-p5-v2-d8-c1-rr-<hash>.so. The
 * build runs once, under a lock (concurrent runs that need the same model
 * wait for it), with its output in a .log beside the object. */
#include "routers/rtl/rtl_model.h"
#include "util/fsutil.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef NOCTUA_RTL_SOURCE
const char *noc_rtl_model_cache(void)
{
    const char *env = getenv("NOCTUA_RTL_CACHE");
    return env && *env ? env : NOCTUA_RTL_CACHE;
}

const char *noc_rtl_source_dir(void)
{
    return NOCTUA_RTL_SOURCE;
}

static int source_hash(uint64_t *h, char *err, size_t errlen)
{
    static const char *const files[] = {
        "routers/rtl/rtl_core_shim.cpp", "routers/rtl/rtl_core.h", "routers/rtl/build_model.sh",
        "routers/rtl/rtl_bits.h", "waves/fst_guard.c", "waves/fst_guard.h",
    };
    char path[1024];
    *h = NOC_FNV_SEED;
    glob_t g;
    snprintf(path, sizeof path, "%s/rtl/*.sv", NOCTUA_RTL_SOURCE);
    if (glob(path, 0, NULL, &g) != 0) {
        snprintf(err, errlen, "--router rtl: no RTL sources under %s/rtl (the source tree this noctua was built from)",
                 NOCTUA_RTL_SOURCE);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < g.gl_pathc && rc == 0; i++)
        rc = noc_fnv_file(h, g.gl_pathv[i]);
    globfree(&g);
    for (size_t i = 0; i < sizeof files / sizeof files[0] && rc == 0; i++) {
        snprintf(path, sizeof path, "%s/%s", NOCTUA_RTL_SOURCE, files[i]);
        rc = noc_fnv_file(h, path);
    }
    if (rc != 0)
        snprintf(err, errlen, "--router rtl: cannot read the RTL sources under %s", NOCTUA_RTL_SOURCE);
    return rc;
}

/* Run build_model.sh for m->path; its output goes to log. */
static int build(const char *out, const char *log, int P, int V, int depth, int n_class, int arb, int trace)
{
    char a[6][16];
    snprintf(a[0], sizeof a[0], "%d", P);
    snprintf(a[1], sizeof a[1], "%d", V);
    snprintf(a[2], sizeof a[2], "%d", depth);
    snprintf(a[3], sizeof a[3], "%d", n_class);
    snprintf(a[4], sizeof a[4], "%d", arb);
    snprintf(a[5], sizeof a[5], "%d", trace);
    char script[1024];
    snprintf(script, sizeof script, "%s/routers/rtl/build_model.sh", NOCTUA_RTL_SOURCE);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        setenv("NOCTUA_SOURCE", NOCTUA_RTL_SOURCE, 1);
        setenv("VERILATOR", NOCTUA_RTL_VERILATOR, 0);
        setenv("VERILATOR_ROOT", NOCTUA_RTL_VERILATOR_ROOT, 0);
        setenv("CXX", NOCTUA_RTL_CXX, 0);
        execl("/bin/sh", "sh", script, out, a[0], a[1], a[2], a[3], a[4], a[5], (char *)NULL);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int noc_rtl_model_load(noc_rtl_model_t *m, int P, int V, int depth, int n_class, int arb, int trace,
                       char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    uint64_t h;
    if (source_hash(&h, err, errlen) != 0)
        return -1;
    const char *dir = noc_rtl_model_cache();
    if (noc_mkdir_p(dir) != 0) {
        snprintf(err, errlen, "--router rtl: cannot create the model cache %s: %s (set NOCTUA_RTL_CACHE)",
                 dir, strerror(errno));
        return -1;
    }
    char base[960], lock[1000], log[1000];
    snprintf(base, sizeof base, "%s/core-p%d-v%d-d%d-c%d-%s%s-%016llx", dir, P, V, depth, n_class,
             arb ? "mx" : "rr", trace ? "-fst" : "", (unsigned long long)h);
    snprintf(m->path, sizeof m->path, "%s.so", base);
    snprintf(lock, sizeof lock, "%s.lock", base);
    snprintf(log, sizeof log, "%s.log", base);

    int fd = open(lock, O_RDWR | O_CREAT, 0666);
    struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    if (fd < 0 || fcntl(fd, F_SETLKW, &fl) != 0) {
        snprintf(err, errlen, "--router rtl: cannot lock %s: %s", lock, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    int rc = 0;
    if (access(m->path, R_OK) != 0) {
        fprintf(stderr,
                "noctua: building the RTL router core for %d ports, %d VCs, depth %d, %d VC classes, %s "
                "arbiters%s (once; cached in %s)\n",
                P, V, depth, n_class, arb ? "matrix" : "round-robin", trace ? ", with tracing" : "", dir);
        if (build(m->path, log, P, V, depth, n_class, arb, trace) != 0) {
            snprintf(err, errlen, "--router rtl: building the core failed; see %s", log);
            rc = -1;
        }
    }
    fl.l_type = F_UNLCK;
    fcntl(fd, F_SETLK, &fl);
    close(fd);
    if (rc != 0)
        return -1;
    m->dl = dlopen(m->path, RTLD_NOW | RTLD_LOCAL);
    if (!m->dl) {
        snprintf(err, errlen, "--router rtl: %s", dlerror());
        return -1;
    }
    noc_rtl_core_api_fn fn;
    *(void **)&fn = dlsym(m->dl, NOC_RTL_CORE_API_SYMBOL);
    m->api = fn ? fn() : NULL;
    if (!m->api || m->api->abi != NOC_RTL_ABI || m->api->P != P || m->api->V != V || m->api->depth != depth ||
        m->api->n_class != n_class || m->api->arb != arb || m->api->traced != trace) {
        snprintf(err, errlen, "--router rtl: %s is not the core asked for (delete it to rebuild)", m->path);
        noc_rtl_model_unload(m);
        return -1;
    }
    return 0;
}

void noc_rtl_model_unload(noc_rtl_model_t *m)
{
    if (m->dl)
        dlclose(m->dl);
    m->dl = NULL;
    m->api = NULL;
}
#else
const char *noc_rtl_model_cache(void)
{
    return NULL;
}

const char *noc_rtl_source_dir(void)
{
    return NULL;
}

int noc_rtl_model_load(noc_rtl_model_t *m, int P, int V, int depth, int n_class, int arb, int trace,
                       char *err, size_t errlen)
{
    (void)P, (void)V, (void)depth, (void)n_class, (void)arb, (void)trace;
    memset(m, 0, sizeof *m);
    snprintf(err, errlen, "--router rtl: this noctua was built without Verilator (install it and rebuild)");
    return -1;
}

void noc_rtl_model_unload(noc_rtl_model_t *m)
{
    m->dl = NULL;
    m->api = NULL;
}
#endif
