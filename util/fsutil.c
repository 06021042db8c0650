/* fsutil.c: folders and content hashes for the tool caches (fsutil.h). */
#include "util/fsutil.h"
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int noc_mkdir_p(const char *dir)
{
    char tmp[1024];
    if (snprintf(tmp, sizeof tmp, "%s", dir) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *q = tmp + 1; *q; q++)
        if (*q == '/') {
            *q = 0;
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
                return -1;
            *q = '/';
        }
    return mkdir(tmp, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

void noc_fnv(uint64_t *h, const void *data, size_t n)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < n; i++)
        *h = (*h ^ b[i]) * UINT64_C(0x100000001b3);
}

int noc_fnv_file(uint64_t *h, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    unsigned char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        noc_fnv(h, buf, n);
    fclose(f);
    return 0;
}

int noc_lock_file(const char *path)
{
    int fd = open(path, O_RDWR | O_CREAT, 0666);
    struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    if (fd < 0 || fcntl(fd, F_SETLKW, &fl) == 0)
        return fd;
    int e = errno;
    close(fd);
    errno = e;
    return -1;
}

void noc_unlock_file(int fd)
{
    struct flock fl = { .l_type = F_UNLCK, .l_whence = SEEK_SET };
    fcntl(fd, F_SETLK, &fl);
    close(fd);
}
