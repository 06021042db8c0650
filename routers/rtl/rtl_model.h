/* rtl_model.h: the Verilated router core for one parameter set, found in the
 * model cache, built there on first use (routers/rtl/build_model.sh), and
 * loaded with dlopen (docs/rtl.md, "The RTL datapath"). */
#ifndef NOC_RTL_MODEL_H
#define NOC_RTL_MODEL_H
#include <stddef.h>
#include "routers/rtl/rtl_core.h"

typedef struct noc_rtl_model {
    void *dl;                        /* dlopen handle */
    const noc_rtl_core_api_t *api;
    char path[1024];                 /* the shared object */
} noc_rtl_model_t;

/* Load (building first if needed) the core with P ports, V VCs, `depth`
 * flits per VC, n_class VC classes and arbiter kind arb (0 round-robin, 1
 * matrix); trace 1: the build with Verilator's FST tracing. Returns 0, or -1
 * with a message in err. */
int noc_rtl_model_load(noc_rtl_model_t *m, int P, int V, int depth, int n_class, int arb, int trace,
                       char *err, size_t errlen);
void noc_rtl_model_unload(noc_rtl_model_t *m);

/* The model cache directory: $NOCTUA_RTL_CACHE, or the build tree's
 * rtl-models/. NULL if noctua was built without Verilator. */
const char *noc_rtl_model_cache(void);

/* The source tree noctua was built from (its rtl/ is what the models and
 * `noctua area` are made of). NULL if built without Verilator. */
const char *noc_rtl_source_dir(void);
#endif
