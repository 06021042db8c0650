/* pool.h: numbered tasks run in child processes, up to `jobs` at once, their
 * results applied strictly in task order (cli/pool.c): the machinery behind
 * `noctua sweep --jobs` and `noctua explore --jobs`. A task's result is a
 * fixed-size block that its child (fork) sends back whole through a pipe, so
 * what the caller sees does not depend on how many ran at once. Internal to
 * cli/. */
#ifndef NOC_CLI_POOL_H
#define NOC_CLI_POOL_H
#include <stddef.h>

/* Why a task has a result it did not compute (noc_pool_ops_t.fail). */
enum {
    NOC_POOL_NO_START,    /* no worker could be started (msg says why) */
    NOC_POOL_LOST,        /* the worker ended without its result (said on stderr) */
    NOC_POOL_INTERRUPTED, /* Ctrl-C came before the task started */
};

typedef struct noc_pool_ops {
    size_t res_size;   /* bytes of one result */
    const char *who;   /* the command, for messages ("noctua sweep") */
    /* 1: task k is not wanted (any more): it is not started, dropped if it
     * runs, and not applied. NULL: every task is wanted. */
    int (*skip)(void *ctx, int k);
    /* 1: task k's result is at hand without a run (res filled: --resume).
     * NULL: none is. */
    int (*ready)(void *ctx, int k, void *res);
    /* Run task k into res (in a child; in this process when jobs <= 1). */
    void (*run)(void *ctx, int k, void *res);
    /* The result of task k, in task order: NOC_EXIT_OK (0) to go on, else
     * the exit status that ends the pool. */
    int (*apply)(void *ctx, int k, void *res);
    /* Fill res for a task that has no result of its own (why: above). */
    void (*fail)(void *ctx, int k, int why, const char *msg, void *res);
} noc_pool_ops_t;

/* Tasks 0 .. total - 1, up to jobs at once (jobs <= 1: one after another
 * in this process). An interrupt (util/interrupt.h) is passed on to the
 * running children; the first task not yet started is applied as
 * NOC_POOL_INTERRUPTED and the pool ends. Returns the exit status of the
 * apply that ended it, NOC_EXIT_OK after the last task. */
int noc_pool_run(int total, int jobs, const noc_pool_ops_t *ops, void *ctx);

#endif
