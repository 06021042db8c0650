/* meminfo.h (util/): how much memory a run may still take, and the check
 * that refuses a run before it allocates what it cannot have (the memory
 * estimates of noc_sim_create and of the program engine). The budget is the
 * smaller of what the address-space limit (RLIMIT_AS, `ulimit -v`) leaves
 * beside what the process maps already, and the memory the machine has
 * available (MemAvailable in /proc/meminfo, which counts reclaimable cache
 * but not swap). docs/reliability.md, "Resources". */
#ifndef NOC_MEMINFO_H
#define NOC_MEMINFO_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* The budget in *bytes and which limit sets it in why ("available
 * (MemAvailable)", "left under the address-space limit (ulimit -v)"); -1
 * when neither can be read (no check then). */
int noc_mem_budget(uint64_t *bytes, char *why, size_t whylen);

/* Does `need` bytes for `what` fit the budget? 0, or -1 with "WHAT needs
 * about X (noctua's estimate), more than the Y WHY; ADVICE" in err. */
int noc_mem_check(uint64_t need, const char *what, const char *advice, char *err, size_t errlen);

/* For data that grows as it is read or made (a program's ops): before an
 * array grows to `bytes` of at least 64 MB, is there room for it? If not,
 * "noctua: WHAT: the program would take about X, ... more than the Y WHY:
 * ..." on stderr and
 * exit status 2 (nothing was simulated yet; the output layer's temporaries
 * are removed at exit). Not an estimate but the allocation itself, so
 * memory_check=0 does not turn it off. */
void noc_mem_check_growth(uint64_t bytes, const char *what);
/* The same for data of `total` bytes in all, `more` of them still to be
 * allocated: refused when `more` does not fit (no look below a total of
 * 64 MB). */
void noc_mem_check_more(uint64_t more, uint64_t total, const char *what);

/* Bytes as "812 MB", "14.8 GB", "1.1 TB". */
void noc_mem_format(uint64_t bytes, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
