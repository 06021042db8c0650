/* filter.h: running a helper program (Graphviz's neato, gnuplot) as a
 * filter whose output noctua writes itself: no shell, no quoting, and the
 * picture goes through noctua's own checked output (util/outfile.h), so a
 * full disk is told by noctua, and a failing helper by its status. */
#ifndef NOC_CLI_FILTER_H
#define NOC_CLI_FILTER_H
#include <stddef.h>
#include <stdio.h>

/* Run argv[0] (looked up on PATH) with argv, its standard input read from
 * the file in_path (NULL: /dev/null), and copy its standard output into out
 * (bytes copied in *n). Returns the helper's wait status (0: it exited 0),
 * or -1 with errno when it could not be started. */
int noc_cli_filter(const char *const argv[], const char *in_path, FILE *out, size_t *n);

/* Is prog an executable on PATH? */
int noc_cli_on_path(const char *prog);

#endif
