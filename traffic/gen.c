/* gen.c: the registry of program generators (gen.h), and the memory check
 * before one is run. */
#include "traffic/gen.h"
#include "util/meminfo.h"
#include <stdio.h>
#include <string.h>

extern const noc_generator_t noc_gen_broadcast, noc_gen_data_sum, noc_gen_prefix_sum;
extern const noc_generator_t noc_gen_alltoall, noc_gen_allgather, noc_gen_allreduce;
extern const noc_generator_t noc_gen_shift, noc_gen_scatter, noc_gen_gather;
extern const noc_generator_t noc_gen_broadcast_1phase, noc_gen_broadcast_2phase, noc_gen_hrelation;
extern const noc_generator_t noc_gen_pyramid_sum, noc_gen_pyramid_broadcast;

const noc_generator_t *const noc_generators[] = {
    &noc_gen_broadcast,
    &noc_gen_data_sum,
    &noc_gen_prefix_sum,
    &noc_gen_scatter,
    &noc_gen_gather,
    &noc_gen_shift,
    &noc_gen_broadcast_1phase,
    &noc_gen_broadcast_2phase,
    &noc_gen_hrelation,
    &noc_gen_pyramid_sum,
    &noc_gen_pyramid_broadcast,
    &noc_gen_alltoall,
    &noc_gen_allgather,
    &noc_gen_allreduce,
    NULL,
};

const noc_generator_t *noc_gen_find(const char *name)
{
    for (int i = 0; noc_generators[i]; i++)
        if (strcmp(noc_generators[i]->name, name) == 0)
            return noc_generators[i];
    return NULL;
}

void noc_gen_args_default(noc_gen_args_t *a)
{
    memset(a, 0, sizeof *a);
    a->q = 1;
    a->words = 1;
    a->seed = 1;
}

const char *noc_gen_variant(const noc_generator_t *g, const noc_gen_args_t *a, char *err, size_t errlen)
{
    if (!g->variants) {
        if (a->variant) {
            snprintf(err, errlen, "%s has no variants", g->name);
            return NULL;
        }
        return "";
    }
    if (!a->variant)
        return g->variants[0];
    for (int i = 0; g->variants[i]; i++)
        if (strcmp(g->variants[i], a->variant) == 0)
            return g->variants[i];
    char list[256] = "";
    for (int i = 0; g->variants[i]; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, g->variants[i], sizeof list - strlen(list) - 1);
    }
    snprintf(err, errlen, "%s: unknown variant '%s' (variants: %s)", g->name, a->variant, list);
    return NULL;
}

int noc_gen_check_memory(const noc_generator_t *g, const noc_topo_t *t, const noc_gen_args_t *a, char *err,
                         size_t errlen)
{
    uint64_t words = g->volume ? g->volume(t, a) : 0, have;
    char why[96], need_s[32], have_s[32];
    if (words == 0 || noc_mem_budget(&have, why, sizeof why) != 0 || words * 32 <= have)
        return 0;
    noc_mem_format(words * 32, need_s, sizeof need_s);
    noc_mem_format(have, have_s, sizeof have_s);
    snprintf(err, errlen, "%s on %s: the program's %llu memory values (init and expect, 32 bytes each while it "
             "is made) need at least %s (noctua's estimate), more than the %s %s; use fewer words (--words) "
             "or a smaller fabric, or memory_check=0 to try anyway", g->name, noc_topo_spec(t),
             (unsigned long long)words, need_s, have_s, why);
    return -1;
}
