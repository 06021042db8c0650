/* fsutil.h (util/): the little file-system work the tool caches share (the RTL
 * model cache of routers/rtl, the area cache of routers/rtl/area.c): make a folder
 * with its parents, and an FNV-1a hash of bytes and of files, which names a
 * cached artefact by what it was made from. */
#ifndef NOC_FSUTIL_H
#define NOC_FSUTIL_H
#include <stddef.h>
#include <stdint.h>

#define NOC_FNV_SEED UINT64_C(0xcbf29ce484222325)

/* mkdir -p; 0, or -1 with errno set. */
int noc_mkdir_p(const char *dir);
/* Wait for and take the exclusive lock of the file path (created when
 * missing): one process at a time builds a cached artefact. The file
 * descriptor to hand to noc_unlock_file, or -1 with errno set. */
int noc_lock_file(const char *path);
void noc_unlock_file(int fd);
/* Fold n bytes into the FNV-1a hash *h (start from NOC_FNV_SEED). */
void noc_fnv(uint64_t *h, const void *data, size_t n);
/* Fold a file's bytes into *h; -1 if it cannot be read. */
int noc_fnv_file(uint64_t *h, const char *path);
#endif
