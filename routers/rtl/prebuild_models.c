/* prebuild_models.c: noctua_rtl_prebuild, run by the build (CMakeLists.txt,
 * target rtl_models) to put the Verilated router cores that the tests and
 * the benchmark use into the model cache, so that they need no compiler
 * when they run (docs/rtl.md, "The RTL datapath"). Other parameter sets are
 * still built on demand by noctua itself.
 *
 *   noctua_rtl_prebuild [-o STAMP] P,V,DEPTH,NCLASS,ARB[,TRACE] ...
 *
 * Each argument is one core: P ports, V VCs, DEPTH flits a VC, NCLASS VC
 * classes, ARB 0 round-robin / 1 matrix, TRACE 1 with Verilator's FST
 * tracing. A core already in the cache for these sources is not built
 * again. The cores' paths go to STAMP (default: stdout). Exit status 0, or
 * 1 naming the core that failed. */
#include <stdio.h>
#include "routers/rtl/rtl_model.h"

int main(int argc, char **argv)
{
    const char *stamp = NULL;
    int first = 1;
    if (argc > 2 && argv[1][0] == '-' && argv[1][1] == 'o' && argv[1][2] == '\0') {
        stamp = argv[2];
        first = 3;
    }
    static char paths[64][1024];
    if (argc - first > 64) {
        fprintf(stderr, "noctua_rtl_prebuild: at most 64 cores a run\n");
        return 1;
    }
    for (int i = first; i < argc; i++) {
        int p[6] = { 0, 0, 0, 0, 0, 0 }, n = 0;
        if (sscanf(argv[i], "%d,%d,%d,%d,%d%n", &p[0], &p[1], &p[2], &p[3], &p[4], &n) != 5 ||
            (argv[i][n] != '\0' && sscanf(argv[i] + n, ",%d", &p[5]) != 1)) {
            fprintf(stderr, "noctua_rtl_prebuild: '%s': expected P,V,DEPTH,NCLASS,ARB[,TRACE]\n", argv[i]);
            return 1;
        }
        noc_rtl_model_t m;
        char err[1200];
        if (noc_rtl_model_load(&m, p[0], p[1], p[2], p[3], p[4], p[5], err, sizeof err) != 0) {
            fprintf(stderr, "noctua_rtl_prebuild: %s\n", err);
            return 1;
        }
        snprintf(paths[i - first], sizeof paths[0], "%s", m.path);
        noc_rtl_model_unload(&m);
    }
    /* the stamp is written only once every core is built, so a failed
     * build leaves none and the next build tries again */
    FILE *out = stamp ? fopen(stamp, "w") : stdout;
    if (!out) {
        perror(stamp);
        return 1;
    }
    for (int i = 0; i < argc - first; i++)
        fprintf(out, "%s\n", paths[i]);
    return fclose(out) == 0 ? 0 : 1;
}
