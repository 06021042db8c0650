/* child.c: a child waited for with a ticking line (child.h). It polls
 * every 100 ms (WNOHANG), which costs nothing next to a build. */
#include "util/child.h"
#include <errno.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int noc_child_wait(pid_t pid, const char *what, int *status)
{
    int tty = isatty(STDERR_FILENO), shown = 0;
    double t0 = now(), next = t0 + 1.0;
    for (;;) {
        pid_t r = waitpid(pid, status, tty ? WNOHANG : 0);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR) {
            int e = errno;
            if (shown)
                fprintf(stderr, "\r\033[K");
            errno = e;
            return -1;
        }
        if (r == 0) { /* still running (a terminal: polled) */
            double t = now();
            if (t >= next) {
                fprintf(stderr, "\r  %s: %.0f s\033[K", what, t - t0);
                fflush(stderr);
                shown = 1;
                next = t + 1.0;
            }
            struct timespec ts = { 0, 100 * 1000 * 1000 };
            nanosleep(&ts, NULL);
        }
    }
    if (shown) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
    return 0;
}
