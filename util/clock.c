/* clock.c: the wall clock of clock.h. */
#define _POSIX_C_SOURCE 200809L
#include "util/clock.h"
#include <time.h>

double noc_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
