/* progress.c: the progress line of long runs (progress.h). The kernel calls
 * show() every PROBE cycles (noc_sim_set_progress); it reads the wall clock
 * and prints at most every PERIOD seconds, so the cost is a clock read per
 * PROBE cycles. */
#include "util/clock.h"
#include "cli/progress.h"
#include "model/pe.h"
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PROBE NOC_PROGRESS_EVERY /* cycles between two looks at the clock */
#define PERIOD 0.25   /* seconds between two lines on a terminal */
#define PERIOD_LOG 10 /* ... and in a log (--progress with stderr not a terminal) */

void noc_progress_init(noc_progress_t *p, int forced, int quiet)
{
    memset(p, 0, sizeof *p);
    p->terminal = isatty(STDERR_FILENO);
    p->on = forced || (p->terminal && !quiet);
}

/* "1h02m", "3m07s", "12s" */
static void duration(double s, char *buf, size_t len)
{
    if (s < 0 || s > 1e7)
        snprintf(buf, len, "?");
    else if (s >= 3600)
        snprintf(buf, len, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
    else if (s >= 60)
        snprintf(buf, len, "%dm%02ds", (int)(s / 60), (int)s % 60);
    else
        snprintf(buf, len, "%ds", (int)(s + 0.5));
}

void noc_progress_show(const noc_sim_t *s, void *ctx)
{
    noc_progress_t *p = ctx;
    double t = noc_wall_seconds();
    noc_sim_where_t w;
    noc_sim_where(s, &w);
    if (p->cycles0 == UINT64_MAX) /* the first call: where the rate starts */
        p->cycles0 = w.now;
    if (t - p->last < (p->terminal ? PERIOD : PERIOD_LOG))
        return;
    double dt = t - p->last;
    double r = dt > 0 ? (double)(w.now - p->cycles0) / dt : 0;
    p->rate = p->rate > 0 ? 0.7 * p->rate + 0.3 * r : r;
    p->last = t;
    p->cycles0 = w.now;
    char line[400], eta[32] = "";
    double frac = -1;
    if (p->pe_stats) {
        const noc_pe_stats_t *st = p->pe_stats;
        frac = st->ops ? (double)st->ops_done / (double)st->ops : 0;
        snprintf(line, sizeof line, "%s: cycle %llu, %llu of %llu operations done (%.0f%%), %.0f cycles/s",
                 p->what, (unsigned long long)w.now, (unsigned long long)st->ops_done,
                 (unsigned long long)st->ops, 100 * frac, p->rate);
    } else {
        static const char *const phase[] = { "warm-up", "measuring", "draining" };
        uint64_t total = w.window_end, done = w.now;
        if (w.phase == 2) { /* the drain's length is not known: its limit */
            total = w.window_end + w.drain_max;
        }
        frac = total ? (double)done / (double)total : 0;
        snprintf(line, sizeof line, "%s: %s, cycle %llu of %llu%s (%.0f%%), %.0f cycles/s", p->what,
                 phase[w.phase], (unsigned long long)done, (unsigned long long)total, w.phase == 2 ? " at most" : "",
                 100 * frac, p->rate);
        if (p->rate > 0 && total > done) {
            char d[16];
            duration((double)(total - done) / p->rate, d, sizeof d);
            snprintf(eta, sizeof eta, ", %s%s left", w.phase == 2 ? "at most " : "", d);
        }
    }
    if (p->terminal) {
        fprintf(stderr, "\r%s%s\033[K", line, eta);
        p->shown = 1;
    } else {
        fprintf(stderr, "%s%s\n", line, eta);
    }
    fflush(stderr);
}

void noc_progress_start(noc_progress_t *p, const void *pe_stats, const char *what)
{
    snprintf(p->what, sizeof p->what, "%s", what);
    p->pe_stats = pe_stats;
    p->t0 = p->last = noc_wall_seconds();
    p->cycles0 = UINT64_MAX;
    p->rate = 0;
}

void noc_progress_attach(noc_progress_t *p, noc_sim_t *s)
{
    if (p->on)
        noc_sim_set_progress(s, noc_progress_show, p, PROBE);
}

void noc_progress_done(noc_progress_t *p)
{
    if (p->shown) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
        p->shown = 0;
    }
}
