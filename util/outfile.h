/* outfile.h (util/): every file noctua writes for its user goes through
 * here, so that an output is either complete or absent, and nothing the user
 * did not name as a regular file is ever truncated, unlinked or replaced.
 *
 * An output is written whole into a temporary file beside its target (same
 * folder, so the final rename is atomic), every write and the close are
 * checked, the data is synced, and only then is the temporary renamed onto
 * the target. A target that exists must be a regular file, or a symbolic
 * link to one: the link stays a link, and the file it points to is
 * replaced. Directories, devices, FIFOs and sockets are refused, as are
 * dangling links. A replaced file keeps its permissions (and owner, where
 * the process may set it); a new one gets 0666 less the umask.
 *
 * Temporary files are registered in a table (a fixed, static one: a signal
 * handler reads it) and removed by noc_out_remove_all(), which is safe in a
 * signal handler, and which runs at exit(): a run that ends by an error,
 * exit(4) on out of memory, or a signal handled by util/interrupt.c, leaves
 * no temporary behind. (SIGKILL does: a file named .TARGET.XXXXXX in the
 * target's folder, never the target itself.)
 *
 * Writers that take a path rather than a FILE * (GTKWave's fstapi, gnuplot,
 * Graphviz) get a temporary path with noc_out_reserve; companions they
 * create beside it (fstapi's "X.hier") are named so that they are removed
 * too. */
#ifndef NOC_OUTFILE_H
#define NOC_OUTFILE_H
#include <stddef.h>
#include <stdio.h>
#ifdef __cplusplus
extern "C" {
#endif

enum {
    NOC_OUT_STDOUT = 1, /* "-" means standard output */
};

typedef struct noc_out {
    FILE *f;        /* where to write (stdout for "-"); NULL for a reserved path */
    char *tmp;      /* the temporary file (NULL for stdout); what a reserve hands out */
    char *target;   /* the file renamed onto at the end (a link's destination) */
    char *name;     /* the path as the user gave it, for messages */
    int slot;       /* the registry entry of tmp, -1 for none */
} noc_out_t;

/* May path be written as an output? 0, or -1 with a message in err naming
 * why not (a directory, a device, a FIFO, a dangling link, a missing or
 * unwritable folder, a file that may not be written). Nothing is created.
 * Commands call it for every output before the work starts, so that a run
 * of an hour does not end in "cannot write". */
int noc_out_check(const char *path, int flags, char *err, size_t errlen);

/* Start an output: o->f is a temporary file beside the target ("-" with
 * NOC_OUT_STDOUT: o->f is stdout). 0, or -1 with a message in err and o
 * left empty. */
int noc_out_open(noc_out_t *o, const char *path, int flags, char *err, size_t errlen);

/* Start an output that another program or library writes by path: o->tmp
 * is a fresh empty temporary file beside the target, for the writer to
 * replace or fill; companion (may be NULL) is a suffix of files the writer
 * makes beside it (".hier"), removed with it. 0, or -1 with err. */
int noc_out_reserve(noc_out_t *o, const char *path, const char *companion, char *err, size_t errlen);

/* Finish an output: check every write, flush, sync, close, rename onto the
 * target. 0; or -1 with a message in err ("PATH: cannot write: No space
 * left on device"), the temporary removed and the target untouched.
 * Either way o is empty afterwards. For stdout: flush and check. */
int noc_out_commit(noc_out_t *o, char *err, size_t errlen);

/* Give an output up: close and remove the temporary; the target is
 * untouched. o is empty afterwards. NULL or empty o: nothing. */
void noc_out_abort(noc_out_t *o);

/* Remove every registered temporary (and its companion). Async-signal-safe:
 * unlink() only. Also runs at exit. */
void noc_out_remove_all(void);

#ifdef __cplusplus
}
#endif
#endif
