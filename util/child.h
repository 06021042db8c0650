/* child.h: waiting for a child process (Verilator's build of an RTL core,
 * a yosys synthesis) that can take minutes, with a line on a terminal
 * that counts the seconds, so that a first build does not look hung. */
#ifndef NOC_CHILD_H
#define NOC_CHILD_H
#include <sys/types.h>

/* Wait for pid; while it runs and stderr is a terminal, show
 * "  WHAT: N s" updated every second (erased at the end). The wait status
 * into *status; 0, or -1 with errno when waiting failed. */
int noc_child_wait(pid_t pid, const char *what, int *status);

#endif
