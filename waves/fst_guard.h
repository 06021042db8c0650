/* fst_guard.h: GTKWave's fstapi writes its files with stdio and maps some
 * of them into memory, and checks neither: on a full disk a write fails
 * without a word, the file is shorter than fstapi believes, and the mapping
 * of it faults (SIGBUS) when touched. fstapi is compiled with its fclose
 * and mmap calls routed here (CMakeLists.txt: -Dfclose=noc_fst_fclose
 * -Dmmap=noc_fst_mmap on fstapi.c alone; the Verilated cores' copy is
 * linked with -Wl,--wrap instead, routers/rtl/build_model.sh), which:
 *   - counts a file closed with its error indicator set, or whose close
 *     failed (a write, a flush or the close failed somewhere);
 *   - counts a mapping of a file that is shorter than the mapping, and
 *     returns anonymous memory instead, so fstapi goes on harmlessly to its
 *     end, where the count tells the wave writer that the file is bad.
 * The wave writer compares the count before and after (wave_fst.c) and
 * removes the file when it grew. Not thread-safe (noctua writes one FST at
 * a time per copy of fstapi). */
#ifndef NOC_FST_GUARD_H
#define NOC_FST_GUARD_H
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#ifdef __cplusplus
extern "C" {
#endif

/* Failed writes and short mappings seen so far in this copy of fstapi. */
unsigned long noc_fst_io_errors(void);

#ifndef NOC_FST_GUARD_WRAP
int noc_fst_fclose(FILE *f);
void *noc_fst_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
#endif

#ifdef __cplusplus
}
#endif
#endif
