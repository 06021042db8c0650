/* progress.h: the one updating line that long work shows on a terminal
 * (docs/reliability.md): what is being done, % done, rate in cycles/s and
 * the time left. Written to stderr with a carriage return, at most a few
 * times a second, and erased at the end; off when stderr is no terminal or
 * with --quiet, on with --progress whatever stderr is. */
#ifndef NOC_CLI_PROGRESS_H
#define NOC_CLI_PROGRESS_H
#include <stdio.h>
#include "model/sim.h"

typedef struct noc_progress {
    int on;                 /* showing */
    int terminal;           /* stderr is a terminal: \r and erase; else one line a report */
    char what[160];         /* "run mesh:64x64", "sweep mesh:8x8 rate 0.30 (6/12)" */
    double t0, last;        /* wall clock at the start and at the last line */
    uint64_t cycles0;       /* cycles when the rate was last measured */
    double rate;            /* cycles per second, smoothed */
    const void *pe_stats;   /* a program run's noc_pe_stats_t (ops done of all), or NULL */
    int shown;              /* a line is on the screen */
} noc_progress_t;

/* Decide whether to show (forced: --progress; quiet: --quiet). */
void noc_progress_init(noc_progress_t *p, int forced, int quiet);
/* Start following a piece of work called `what`: a synthetic run, or a
 * program run whose noc_pe_stats_t is pe_stats. */
void noc_progress_start(noc_progress_t *p, const void *pe_stats, const char *what);
/* The kernel's side: noc_sim_set_progress(s, noc_progress_show, p,
 * NOC_PROGRESS_EVERY) once the simulator exists, when p->on (what
 * noc_progress_attach does, and app/run.h's opts for a synthetic run). */
#define NOC_PROGRESS_EVERY 64
void noc_progress_show(const noc_sim_t *s, void *p);
void noc_progress_attach(noc_progress_t *p, noc_sim_t *s);
/* Erase the line (at the end of the work, before its report). */
void noc_progress_done(noc_progress_t *p);

#endif
