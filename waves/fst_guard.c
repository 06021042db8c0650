/* fst_guard.c: the fclose and mmap that fstapi is built against
 * (fst_guard.h). Compiled as C into noctua, and as C++ with
 * NOC_FST_GUARD_WRAP into each Verilated core that traces (its fstapi is
 * linked with --wrap=fclose,--wrap=mmap, so the names are __wrap_*). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS */
#include "waves/fst_guard.h"
#include <sys/mman.h>
#include <sys/stat.h>

#ifdef NOC_FST_GUARD_WRAP
#ifdef __cplusplus
extern "C" {
#endif
int __real_fclose(FILE *f);
void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int __wrap_fclose(FILE *f);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
#ifdef __cplusplus
}
#endif
#define GUARD_FCLOSE __wrap_fclose
#define GUARD_MMAP __wrap_mmap
#define REAL_FCLOSE __real_fclose
#define REAL_MMAP __real_mmap
#else
#define GUARD_FCLOSE noc_fst_fclose
#define GUARD_MMAP noc_fst_mmap
#define REAL_FCLOSE fclose
#define REAL_MMAP mmap
#endif

static unsigned long errors;

unsigned long noc_fst_io_errors(void)
{
    return errors;
}

int GUARD_FCLOSE(FILE *f)
{
    int bad = ferror(f);
    int rc = REAL_FCLOSE(f);
    if (bad || rc != 0)
        errors++;
    return rc;
}

void *GUARD_MMAP(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    static char nothing;
    struct stat st;
    if (len == 0)
        return &nothing; /* a mapping of nothing: never touched (mmap would fail, and fstapi say so) */
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && off + (off_t)len > st.st_size) {
        /* a write before the mapping failed: the file is short, and a
         * touch past its end would fault */
        errors++;
        return REAL_MMAP(addr, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    }
    return REAL_MMAP(addr, len, prot, flags, fd, off);
}
