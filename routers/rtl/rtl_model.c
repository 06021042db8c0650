/* rtl_model.c: find, build and load a Verilated router core (rtl_model.h).
 *
 * A model is named by its parameters and a hash of everything it is made
 * from (rtl/, the shim, the ABI header, the build script), so an edited core
 * is rebuilt, never loaded stale: <cache>/core-p5-v2-d8-c1-rr-<hash>.so. The
 * build runs once, under a lock (concurrent runs that need the same model
 * wait for it), with its output in a .log beside the object. */
#ifdef NOCTUA_RTL_INSTALLED
#define _GNU_SOURCE /* dladdr: where the installed library (or program) is */
#endif
#include "routers/rtl/rtl_model.h"
#include "util/fsutil.h"
#include "util/child.h"

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

/* Where the RTL sources and the model cache are. The build tree's noctua
 * (NOCTUA_RTL_SOURCE) has both paths compiled in: the source tree and
 * build/rtl-models. The installed library and program (NOCTUA_RTL_INSTALLED,
 * cmake/install.cmake) carry no absolute path: the sources are
 * $NOCTUA_RTL_SOURCE, else PREFIX/share/noctua found from where the library
 * (or the program) was loaded, through the relative paths NOCTUA_RTL_FROM_LIB
 * and NOCTUA_RTL_FROM_BIN; the cache is $NOCTUA_RTL_CACHE, else
 * $XDG_CACHE_HOME/noctua/rtl-models, else ~/.cache/noctua/rtl-models. */
#if defined(NOCTUA_RTL_SOURCE)
const char *noc_rtl_model_cache(void)
{
    const char *env = getenv("NOCTUA_RTL_CACHE");
    return env && *env ? env : NOCTUA_RTL_CACHE;
}

const char *noc_rtl_source_dir(void)
{
    return NOCTUA_RTL_SOURCE;
}
#elif defined(NOCTUA_RTL_INSTALLED)
#include <limits.h>
#include <pthread.h>

static pthread_once_t paths_once = PTHREAD_ONCE_INIT;
/* set once (paths_once), then only read: the same for every simulator */
static char source_dir[PATH_MAX], cache_dir[PATH_MAX];

/* dir holds the RTL sources? */
static int has_sources(const char *dir)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/rtl/noc_pkg.sv", dir);
    return access(path, R_OK) == 0;
}

/* The directory of file into buf (its last '/' cut off); -1 if none. */
static int dir_of(const char *file, char *buf, size_t len)
{
    const char *slash = strrchr(file, '/');
    if (!slash || (size_t)(slash - file) >= len)
        return -1;
    memcpy(buf, file, (size_t)(slash - file));
    buf[slash - file] = '\0';
    return 0;
}

/* source_dir = dir/rel, if that holds the sources; else 0 and -1. */
static int try_source(const char *dir, const char *rel)
{
    char path[2 * PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    if (realpath(path, source_dir) && has_sources(source_dir))
        return 0;
    source_dir[0] = '\0';
    return -1;
}

static void find_paths(void)
{
    static const char anchor = 0; /* an object of this library, to find it */
    const char *env = getenv("NOCTUA_RTL_SOURCE");
    char dir[PATH_MAX], exe[PATH_MAX];
    Dl_info info;
    if (env && *env)
        snprintf(source_dir, sizeof source_dir, "%s", env);
    else if (dladdr(&anchor, &info) && info.dli_fname && info.dli_fname[0] == '/' &&
             dir_of(info.dli_fname, dir, sizeof dir) == 0 &&
             (try_source(dir, NOCTUA_RTL_FROM_LIB) == 0 || try_source(dir, NOCTUA_RTL_FROM_BIN) == 0))
        ; /* libnoctua.so, or a program that links it */
    else {  /* a program with the static library */
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n > 0) {
            exe[n] = '\0';
            if (dir_of(exe, dir, sizeof dir) == 0)
                try_source(dir, NOCTUA_RTL_FROM_BIN);
        }
    }
    const char *cache = getenv("NOCTUA_RTL_CACHE");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (cache && *cache)
        snprintf(cache_dir, sizeof cache_dir, "%s", cache);
    else if (xdg && xdg[0] == '/')
        snprintf(cache_dir, sizeof cache_dir, "%s/noctua/rtl-models", xdg);
    else if (home && *home)
        snprintf(cache_dir, sizeof cache_dir, "%s/.cache/noctua/rtl-models", home);
}

const char *noc_rtl_model_cache(void)
{
    pthread_once(&paths_once, find_paths);
    return cache_dir[0] ? cache_dir : NULL;
}

const char *noc_rtl_source_dir(void)
{
    pthread_once(&paths_once, find_paths);
    return source_dir[0] ? source_dir : NULL;
}
#endif

#if defined(NOCTUA_RTL_SOURCE) || defined(NOCTUA_RTL_INSTALLED)

static int source_hash(uint64_t *h, char *err, size_t errlen)
{
    static const char *const files[] = {
        "routers/rtl/rtl_core_shim.cpp", "routers/rtl/rtl_core.h", "routers/rtl/build_model.sh",
        "routers/rtl/rtl_bits.h", "waves/fst_guard.c", "waves/fst_guard.h",
    };
    char path[1024];
    *h = NOC_FNV_SEED;
    glob_t g;
    const char *src = noc_rtl_source_dir();
    if (!src) {
        snprintf(err, errlen, "--router rtl: the RTL sources (PREFIX/share/noctua) are not beside this noctua "
                              "library; set NOCTUA_RTL_SOURCE to that folder");
        return -1;
    }
    snprintf(path, sizeof path, "%s/rtl/*.sv", src);
    if (glob(path, 0, NULL, &g) != 0) {
        snprintf(err, errlen, "--router rtl: no RTL sources under %s/rtl (the source tree this noctua was built from)",
                 src);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < g.gl_pathc && rc == 0; i++)
        rc = noc_fnv_file(h, g.gl_pathv[i]);
    globfree(&g);
    for (size_t i = 0; i < sizeof files / sizeof files[0] && rc == 0; i++) {
        snprintf(path, sizeof path, "%s/%s", src, files[i]);
        rc = noc_fnv_file(h, path);
    }
    if (rc != 0)
        snprintf(err, errlen, "--router rtl: cannot read the RTL sources under %s", src);
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
    const char *src = noc_rtl_source_dir(); /* not NULL: source_hash ran first */
    snprintf(script, sizeof script, "%s/routers/rtl/build_model.sh", src);
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
        setenv("NOCTUA_SOURCE", src, 1);
        setenv("VERILATOR", NOCTUA_RTL_VERILATOR, 0);
        setenv("VERILATOR_ROOT", NOCTUA_RTL_VERILATOR_ROOT, 0);
        setenv("CXX", NOCTUA_RTL_CXX, 0);
        execl("/bin/bash", "bash", script, out, a[0], a[1], a[2], a[3], a[4], a[5], (char *)NULL);
        _exit(127);
    }
    int st;
    if (noc_child_wait(pid, "building the RTL core with Verilator (a first build takes 1-3 minutes)", &st) != 0)
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
    if (!dir) {
        snprintf(err, errlen, "--router rtl: no folder for the model cache (set NOCTUA_RTL_CACHE or HOME)");
        return -1;
    }
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

    int fd = noc_lock_file(lock);
    if (fd < 0) {
        snprintf(err, errlen, "--router rtl: cannot lock %s: %s", lock, strerror(errno));
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
    noc_unlock_file(fd);
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
