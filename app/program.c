/* program.c: the program a run asks for (app/program.h): a program file
 * read, or a collective's generator run on the fabric with its arguments
 * (its root found by label, its memory checked before it is made, its
 * facts written). What the CLI, the RTL benches and embedders share. */
#include "app/program.h"
#include "util/suggest.h"
#include <stdio.h>
#include <string.h>

noc_program_t *noc_app_prog_load(const char *name, const char *file, const char *root,
                                 const noc_gen_args_t *gen_args, const noc_topo_t *t, int memory_check, char *facts,
                                 size_t facts_len, char *err, size_t errlen)
{
    if (file)
        return noc_prog_read_file(file, err, errlen);
    const noc_generator_t *g = noc_gen_find(name);
    if (!g) {
        char list[512] = "";
        for (int i = 0; noc_generators[i]; i++) {
            strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
            strncat(list, noc_generators[i]->name, sizeof list - strlen(list) - 1);
        }
        char near[32], dym[64] = "";
        if (noc_suggest_list(name, list, near, sizeof near)[0])
            snprintf(dym, sizeof dym, "did you mean '%s'? ", near);
        snprintf(err, errlen, "unknown program '%s' (%sprograms: %s)", name, dym, list);
        return NULL;
    }
    noc_gen_args_t args = *gen_args;
    if (root) {
        args.root = noc_topo_find_label(t, root);
        if (args.root < 0) {
            snprintf(err, errlen, "--root %s names no node of %s", root, noc_topo_spec(t));
            return NULL;
        }
    }
    if (memory_check && noc_gen_check_memory(g, t, &args, err, errlen))
        return NULL;
    noc_program_t *p = g->make(t, &args, err, errlen);
    if (p && g->facts)
        g->facts(t, &args, facts, facts_len);
    return p;
}
