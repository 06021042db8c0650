/* waves.h: waveforms of a run. A noc_waves_t watches one simulator (as its
 * observer, sim.h) and writes what the fabric does, cycle by cycle, into a
 * wave file that GTKWave opens: FST through GTKWave's own fstapi (the
 * default), or VCD when the path ends in ".vcd". When it is closed it also
 * writes a GTKWave save file beside the wave file (X.fst -> X.gtkw) that
 * shows the step signal, the hot links and the fabric's groups, with a
 * marker at every step boundary. docs/waves.md describes the hierarchy and
 * every signal.
 *
 * Time: one time unit (1 ns in the file) is one cycle. Conventions:
 *   - a link's signals at time t describe the flit ARRIVING over it in cycle
 *     t (the one the downstream router reads in cycle t); the flit left the
 *     upstream router `latency` cycles earlier. Its fields (pkt, src, dst,
 *     vc, head, tail, grant) hold their last values while valid is 0;
 *   - every other signal (buffer occupancy, credits, PE operation, step,
 *     counts, the top step) at time t is the state at the END of cycle t:
 *     an op started in cycle t shows from t, a step whose first op starts
 *     in cycle t switches at t (the report's "first" column).
 * Only changes are written, and only for nodes that match the scope
 * pattern, inside the cycle window. */
#ifndef NOC_WAVES_H
#define NOC_WAVES_H
#include <stddef.h>
#include <stdint.h>
#include "model/sim.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct noc_waves noc_waves_t;

typedef struct noc_waves_opts {
    /* Nodes whose signals are written, matched against their labels with
     * blanks ignored: a glob when it holds '*' or '?' ("<1,*,0>"), else a
     * substring ("<1,"); several alternatives separated by '|'. NULL or "":
     * every node. The top step signal is always written. */
    const char *scope;
    uint64_t from, to;  /* cycles written, both included (default 0 .. UINT64_MAX) */
    int gtkw;           /* write the GTKWave save file beside the wave file (default 1) */
    /* 1: read every router in scope every cycle, not only those that may
     * have changed (waves.c); slower, the same file. For tests. */
    int all_routers;
} noc_waves_opts_t;

void noc_waves_opts_init(noc_waves_opts_t *o);
/* Parse a window "FROM:TO" (either may be left out: ":500", "100:") into o.
 * Returns 0, or -1 with a message in err. */
int noc_waves_parse_window(noc_waves_opts_t *o, const char *text, char *err, size_t errlen);

/* Open a wave file for simulator s (a program run's PE engine, if any, must
 * be attached already), declare its signals and register as s's observer:
 * from now on every cycle that s simulates is recorded. s must outlive the
 * noc_waves_t, and the run must not replace the observer. Returns NULL with a
 * message in err on bad options (a scope that matches no node, an empty
 * window) or when the file cannot be written. */
noc_waves_t *noc_waves_open(const char *path, noc_sim_t *s, const noc_waves_opts_t *o, char *err,
                            size_t errlen);

/* Record the state the last simulated cycle left, write the end of the wave
 * file and the save file (using the run's final link counts and, for a
 * program run, its step statistics), unregister and free w. Returns 0, or -1
 * with a message in err when a file could not be written (w is freed all the
 * same). NULL w: nothing, 0. */
int noc_waves_close(noc_waves_t *w, char *err, size_t errlen);

/* The save file path for a wave file path: its extension (.fst, .vcd)
 * replaced by .gtkw, or .gtkw appended. */
void noc_waves_gtkw_path(const char *path, char *buf, size_t len);
/* The second file beside `path` in which a router family with signals of its
 * own (--router rtl: the Verilated cores) records them: X.fst -> X.rtl.fst. */
void noc_waves_inner_path(const char *path, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
