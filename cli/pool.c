/* pool.c: the tasks of cli/pool.h in child processes. A window of at most
 * 2 x jobs tasks (task k in slot k mod window) is in flight, at most jobs
 * of them running; the task at the window's start is applied when its
 * result is whole, then the window moves on. A worker sends its result
 * whole through a pipe and leaves with _exit (not the parent's exit
 * handlers); workers of tasks no longer wanted are killed. */
#include "cli/pool.h"
#include "cli/cli.h"
#include "util/interrupt.h"
#include "util/ranks.h"
#include "util/xalloc.h"
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_SLOTS 64

/* A slot of the window: task `task` runs in child pid, whose result
 * arrives through fd into res. */
typedef struct slot {
    int task;           /* -1: free */
    pid_t pid;
    int fd;             /* -1: no child to read */
    size_t got;         /* bytes of res read */
    int done;           /* res is whole (or says why not) */
    unsigned char *res;
} slot_t;

typedef struct pool {
    const noc_pool_ops_t *ops;
    void *ctx;
    slot_t sl[MAX_SLOTS];
    int n_slots;
} pool_t;

static void child(pool_t *pl, slot_t *sl, int k, int wfd)
{
    for (int j = 0; j < pl->n_slots; j++)
        if (pl->sl[j].task >= 0 && &pl->sl[j] != sl && pl->sl[j].fd >= 0)
            close(pl->sl[j].fd);
    pl->ops->run(pl->ctx, k, sl->res);
    const char *p = (const char *)sl->res;
    for (size_t left = pl->ops->res_size; left > 0;) {
        ssize_t w = write(wfd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            _exit(1);
        p += w;
        left -= (size_t)w;
    }
    _exit(0);
}

static void start(pool_t *pl, slot_t *sl, int k)
{
    int fds[2];
    sl->task = k;
    sl->got = 0;
    sl->done = 0;
    sl->fd = -1;
    if (pipe(fds) != 0 || (sl->pid = fork()) < 0) {
        char msg[200];
        snprintf(msg, sizeof msg, "cannot start a worker process: %s", strerror(errno));
        memset(sl->res, 0, pl->ops->res_size);
        pl->ops->fail(pl->ctx, k, NOC_POOL_NO_START, msg, sl->res);
        sl->done = 1;
        return;
    }
    if (sl->pid == 0) {
        close(fds[0]);
        child(pl, sl, k, fds[1]);
    }
    close(fds[1]);
    sl->fd = fds[0];
}

/* Read what the child of sl has sent; at its end, reap it. */
static void collect(pool_t *pl, slot_t *sl)
{
    size_t size = pl->ops->res_size;
    ssize_t k = read(sl->fd, sl->res + sl->got, size - sl->got);
    if (k > 0) {
        sl->got += (size_t)k;
        return;
    }
    if (k < 0 && errno == EINTR)
        return;
    close(sl->fd);
    sl->fd = -1;
    int st = 0;
    while (waitpid(sl->pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (sl->got != size) {
        fprintf(stderr, "%s: a worker process ended %s %d without its result\n", pl->ops->who,
                WIFSIGNALED(st) ? "by signal" : "with status", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
        memset(sl->res, 0, size);
        pl->ops->fail(pl->ctx, sl->task, NOC_POOL_LOST, "", sl->res);
    }
    sl->done = 1;
}

static void drop(slot_t *sl)
{
    if (sl->task < 0)
        return;
    if (sl->fd >= 0) {
        kill(sl->pid, SIGKILL);
        close(sl->fd);
        while (waitpid(sl->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    sl->task = -1;
    sl->fd = -1;
}

/* Wait until a running child has something to read, and read it. */
static void wait_some(pool_t *pl)
{
    struct pollfd pf[MAX_SLOTS];
    int idx[MAX_SLOTS], m = 0;
    for (int j = 0; j < pl->n_slots; j++)
        if (pl->sl[j].task >= 0 && !pl->sl[j].done && pl->sl[j].fd >= 0) {
            pf[m].fd = pl->sl[j].fd;
            pf[m].events = POLLIN;
            idx[m++] = j;
        }
    if (m == 0 || poll(pf, (nfds_t)m, 500) <= 0)
        return;
    for (int q = 0; q < m; q++)
        if (pf[q].revents)
            collect(pl, &pl->sl[idx[q]]);
}

static int skipped(const pool_t *pl, int k)
{
    return pl->ops->skip && pl->ops->skip(pl->ctx, k);
}

/* Start tasks next.. while the window and jobs allow; returns the new next. */
static int fill(pool_t *pl, int next, int at, int total, int jobs, int *running)
{
    for (; next < total && next < at + pl->n_slots && *running < jobs && !noc_interrupted(); next++) {
        if (skipped(pl, next))
            continue;
        slot_t *f = &pl->sl[next % pl->n_slots];
        if (pl->ops->ready && pl->ops->ready(pl->ctx, next, f->res)) {
            f->task = next; /* done already: no worker */
            f->done = 1;
            f->fd = -1;
        } else {
            start(pl, f, next);
        }
        ++*running;
    }
    return next;
}

/* Ctrl-C reaches the children from a terminal; a signal sent to this
 * process alone is passed on, so that their runs end at the end of a cycle
 * and say so, as a run in this process would. */
static void pass_interrupt(pool_t *pl)
{
    for (int j = 0; j < pl->n_slots; j++)
        if (pl->sl[j].task >= 0 && pl->sl[j].fd >= 0)
            kill(pl->sl[j].pid, SIGINT);
}

static int run_parallel(pool_t *pl, int total, int jobs)
{
    int next = 0, at = 0, running = 0, rc = NOC_EXIT_OK, told = 0;
    fflush(NULL); /* nothing buffered is written twice by a child */
    while (at < total && rc == NOC_EXIT_OK) {
        if (noc_interrupted() && !told) {
            pass_interrupt(pl);
            told = 1;
        }
        next = fill(pl, next, at, total, jobs, &running);
        slot_t *s = &pl->sl[at % pl->n_slots];
        if (skipped(pl, at)) { /* no longer wanted */
            if (s->task == at) {
                running--;
                drop(s);
            }
            at++;
            continue;
        }
        if (s->task != at && noc_interrupted()) { /* Ctrl-C before this task started: it ends here */
            memset(s->res, 0, pl->ops->res_size);
            pl->ops->fail(pl->ctx, at, NOC_POOL_INTERRUPTED, "", s->res);
            rc = pl->ops->apply(pl->ctx, at, s->res);
            break;
        }
        int waiting = 0;
        for (int j = 0; j < pl->n_slots; j++)
            waiting += pl->sl[j].task >= 0 && !pl->sl[j].done;
        if (s->task != at && waiting == 0 && next > at) { /* cannot happen: never wait for nothing */
            fprintf(stderr, "%s: task %d was never started (an internal error)\n", pl->ops->who, at + 1);
            rc = NOC_EXIT_INTERNAL;
            break;
        }
        if (s->task != at || !s->done) {
            wait_some(pl);
            continue;
        }
        rc = pl->ops->apply(pl->ctx, at, s->res);
        s->task = -1;
        running--;
        at++;
    }
    for (int j = 0; j < pl->n_slots; j++)
        drop(&pl->sl[j]);
    return rc;
}

static int run_here(pool_t *pl, int total)
{
    int rc = NOC_EXIT_OK;
    unsigned char *res = pl->sl[0].res;
    for (int k = 0; k < total && rc == NOC_EXIT_OK; k++) {
        if (skipped(pl, k))
            continue;
        if (noc_interrupted()) {
            memset(res, 0, pl->ops->res_size);
            pl->ops->fail(pl->ctx, k, NOC_POOL_INTERRUPTED, "", res);
            return pl->ops->apply(pl->ctx, k, res);
        }
        if (!pl->ops->ready || !pl->ops->ready(pl->ctx, k, res))
            pl->ops->run(pl->ctx, k, res);
        rc = pl->ops->apply(pl->ctx, k, res);
    }
    return rc;
}

/* Under mpirun (R ranks, every one running this same loop): rounds of the
 * next R wanted tasks, task i of a round run by rank i, one at a time in
 * that rank's process; the results gathered to every rank and applied by
 * each in task order, so every rank's state, and its skip answers, stay
 * the same (rank 0's outputs are the ones written: cli/main.c). A Ctrl-C
 * on any rank ends the pool after the round, as run_here would. */
static int run_ranks(pool_t *pl, int total)
{
    int R = noc_ranks_size(), me = noc_ranks_rank(), rc = NOC_EXIT_OK;
    size_t size = pl->ops->res_size;
    unsigned char *mine = pl->sl[0].res, *all = noc_xcalloc((size_t)R, size, "worker pool");
    int *round = noc_xcalloc((size_t)R, sizeof *round, "worker pool");
    for (int k = 0; k < total && rc == NOC_EXIT_OK;) {
        int m = 0;
        for (; k < total && m < R; k++)
            if (!skipped(pl, k))
                round[m++] = k;
        if (m == 0)
            break;
        if (noc_ranks_any(noc_interrupted())) {
            memset(mine, 0, size);
            pl->ops->fail(pl->ctx, round[0], NOC_POOL_INTERRUPTED, "", mine);
            rc = pl->ops->apply(pl->ctx, round[0], mine);
            break;
        }
        memset(mine, 0, size);
        if (me < m && (!pl->ops->ready || !pl->ops->ready(pl->ctx, round[me], mine)))
            pl->ops->run(pl->ctx, round[me], mine);
        noc_ranks_allgather(mine, size, all);
        for (int i = 0; i < m && rc == NOC_EXIT_OK; i++)
            if (!skipped(pl, round[i])) /* (an earlier one of the round may have made it unwanted) */
                rc = pl->ops->apply(pl->ctx, round[i], all + (size_t)i * size);
    }
    free(round);
    free(all);
    return rc;
}

int noc_pool_run(int total, int jobs, const noc_pool_ops_t *ops, void *ctx)
{
    pool_t *pl = noc_xcalloc(1, sizeof *pl, "worker pool");
    pl->ops = ops;
    pl->ctx = ctx;
    pl->n_slots = jobs <= 1 ? 1 : 2 * jobs > MAX_SLOTS ? MAX_SLOTS : 2 * jobs;
    if (jobs > pl->n_slots)
        jobs = pl->n_slots;
    for (int j = 0; j < pl->n_slots; j++) {
        pl->sl[j].task = -1;
        pl->sl[j].fd = -1;
        pl->sl[j].res = noc_xcalloc(1, ops->res_size, "worker pool");
    }
    int rc = noc_ranks_size() > 1 ? run_ranks(pl, total) : jobs <= 1 ? run_here(pl, total) : run_parallel(pl, total, jobs);
    for (int j = 0; j < pl->n_slots; j++)
        free(pl->sl[j].res);
    free(pl);
    return rc;
}
