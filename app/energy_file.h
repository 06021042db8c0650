/* energy_file.h: the energy table of a run (energy=FILE or energy=default,
 * docs/energy.md) read from its file and set on the simulator
 * (energy_file.c): what `noctua run` for synthetic traffic and for
 * programs share. */
#ifndef NOC_APP_ENERGY_FILE_H
#define NOC_APP_ENERGY_FILE_H
#include <stddef.h>
#include "model/energy.h"
#ifdef __cplusplus
extern "C" {
#endif

/* The table named by `what`: "default" (the built-in one), else the path
 * of a table file. 0, or -1 with "FILE:LINE: ..." (or why the file cannot
 * be read) in err. */
int noc_app_energy_load(const char *what, noc_energy_table_t *t, char *err, size_t errlen);
/* Set the table of s's energy parameter on s (nothing when it is empty):
 * 0, or -1 with a message naming the parameter, the file and the line. */
int noc_app_energy_attach(noc_sim_t *s, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
