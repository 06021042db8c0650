/* meminfo.c (util/): the memory budget of a run, from the address-space
 * limit and /proc (meminfo.h). */
#include "util/meminfo.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* Bytes the process maps now (VmSize, from /proc/self/statm), 0 if unknown. */
static uint64_t mapped_now(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long long pages = 0;
    if (f) {
        if (fscanf(f, "%llu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    long ps = sysconf(_SC_PAGESIZE);
    return (uint64_t)pages * (uint64_t)(ps > 0 ? ps : 4096);
}

/* MemAvailable in bytes, 0 if unknown. */
static uint64_t mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kb = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return (uint64_t)kb * 1024;
}

int noc_mem_budget(uint64_t *bytes, char *why, size_t whylen)
{
    int known = 0;
    uint64_t avail = mem_available();
    if (avail) {
        *bytes = avail;
        snprintf(why, whylen, "available (MemAvailable)");
        known = 1;
    }
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        uint64_t used = mapped_now(), lim = (uint64_t)rl.rlim_cur;
        uint64_t left = lim > used ? lim - used : 0;
        if (!known || left < *bytes) {
            *bytes = left;
            snprintf(why, whylen, "left under the address-space limit (ulimit -v)");
            known = 1;
        }
    }
    return known ? 0 : -1;
}

void noc_mem_check_more(uint64_t more, uint64_t total, const char *what)
{
    uint64_t have;
    char why[96], a[32], b[32], c[32];
    if (total < ((uint64_t)64 << 20) || noc_mem_budget(&have, why, sizeof why) != 0 || more <= have)
        return;
    noc_mem_format(total, a, sizeof a);
    noc_mem_format(more, b, sizeof b);
    noc_mem_format(have, c, sizeof c);
    fprintf(stderr, "noctua: %s: the program would take about %s, %s of it still to allocate, more than the %s "
            "%s: it is too large for this machine; make it smaller\n", what, a, b, c, why);
    exit(2);
}

void noc_mem_check_growth(uint64_t bytes, const char *what)
{
    noc_mem_check_more(bytes, bytes, what);
}

void noc_mem_format(uint64_t bytes, char *buf, size_t len)
{
    double b = (double)bytes;
    if (b >= 1e12)
        snprintf(buf, len, "%.1f TB", b / 1e12);
    else if (b >= 1e9)
        snprintf(buf, len, "%.1f GB", b / 1e9);
    else if (b >= 1e6)
        snprintf(buf, len, "%.0f MB", b / 1e6);
    else
        snprintf(buf, len, "%.0f kB", b / 1e3);
}

int noc_mem_check(uint64_t need, const char *what, const char *advice, char *err, size_t errlen)
{
    uint64_t have;
    char why[96], a[32], b[32];
    if (noc_mem_budget(&have, why, sizeof why) != 0 || need <= have)
        return 0;
    noc_mem_format(need, a, sizeof a);
    noc_mem_format(have, b, sizeof b);
    snprintf(err, errlen, "%s needs about %s (noctua's estimate), more than the %s %s; %s", what, a, b, why,
             advice);
    return -1;
}
