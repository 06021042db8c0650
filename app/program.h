/* program.h: loading the program of a run (program.c): a file in the text
 * format (docs/programs.md) or a generator of the collectives
 * (traffic/gen.h), as `noctua run --program-file` and `--program` do. */
#ifndef NOC_APP_PROGRAM_H
#define NOC_APP_PROGRAM_H
#include <stddef.h>
#include "model/program.h"
#include "topologies/topo.h"
#include "traffic/gen.h"
#ifdef __cplusplus
extern "C" {
#endif

/* The program file `file` if not NULL, else generator `name` on t with
 * gen_args (root: the label of its root node, NULL: the generator's
 * default); a generator's facts ("key = value" lines) go to facts
 * (facts_len bytes). memory_check: refuse a generator's program whose
 * memory values do not fit before it is made (noc_gen_check_memory). NULL
 * with a message in err. */
noc_program_t *noc_app_prog_load(const char *name, const char *file, const char *root,
                                 const noc_gen_args_t *gen_args, const noc_topo_t *t, int memory_check, char *facts,
                                 size_t facts_len, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
