/* outfile.c (util/): outputs that are complete or absent: temporary file
 * beside the target, checked writes, sync, rename (outfile.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "util/outfile.h"
#include "util/ranks.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The registry of live temporaries, read by noc_out_remove_all() from a
 * signal handler: fixed storage, an entry's path written before `on` is
 * set, with the handled signals blocked meanwhile. */
#define SLOTS 64
#define COMP_MAX 16
static struct {
    volatile sig_atomic_t on;
    char path[PATH_MAX];
    char comp[COMP_MAX];
} reg[SLOTS];

static void block(sigset_t *old)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    sigaddset(&s, SIGHUP);
    sigaddset(&s, SIGQUIT);
    sigprocmask(SIG_BLOCK, &s, old);
}

static void unblock(const sigset_t *old)
{
    sigprocmask(SIG_SETMASK, old, NULL);
}

void noc_out_remove_all(void)
{
    for (int i = 0; i < SLOTS; i++) {
        if (!reg[i].on)
            continue;
        unlink(reg[i].path);
        if (reg[i].comp[0]) {
            char p[PATH_MAX + COMP_MAX];
            size_t n = strlen(reg[i].path), k = strlen(reg[i].comp);
            memcpy(p, reg[i].path, n);
            memcpy(p + n, reg[i].comp, k + 1);
            unlink(p);
        }
        reg[i].on = 0;
    }
}

static void at_exit(void)
{
    noc_out_remove_all();
}

static const char *kind(mode_t m)
{
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a regular file";
}

static char *dup_str(const char *s)
{
    char *d = strdup(s);
    if (!d) {
        fputs("noctua: out of memory\n", stderr);
        exit(4);
    }
    return d;
}

/* Where a write to path lands: *target (malloc'd), whether it exists and its
 * mode. 0, or -1 with err. */
static int resolve(const char *path, char **target, int *exists, struct stat *st, char *err, size_t errlen)
{
    *target = NULL;
    *exists = 0;
    if (!path[0]) {
        snprintf(err, errlen, "an empty output path");
        return -1;
    }
    if (lstat(path, st) == 0) {
        if (S_ISLNK(st->st_mode)) {
            char *real = realpath(path, NULL);
            if (!real) {
                snprintf(err, errlen, "%s: a symbolic link that leads nowhere (%s); not writing through it", path,
                         strerror(errno));
                return -1;
            }
            if (stat(real, st) != 0 || !S_ISREG(st->st_mode)) {
                snprintf(err, errlen, "%s: a symbolic link to %s, not to a regular file; not writing to it", path,
                         kind(st->st_mode));
                free(real);
                return -1;
            }
            *target = real;
        } else if (!S_ISREG(st->st_mode)) {
            snprintf(err, errlen, "%s: %s, not a regular file; not writing to it", path, kind(st->st_mode));
            return -1;
        } else {
            *target = dup_str(path);
        }
        *exists = 1;
        if (access(*target, W_OK) != 0) {
            snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
            free(*target);
            *target = NULL;
            return -1;
        }
        return 0;
    }
    if (errno != ENOENT) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    *target = dup_str(path);
    return 0;
}

/* The folder of path, and the temporary's template ".NAME.XXXXXX" in it. */
static int temp_template(const char *target, char *buf, size_t len)
{
    const char *slash = strrchr(target, '/');
    size_t dl = slash ? (size_t)(slash - target) + 1 : 0;
    const char *base = slash ? slash + 1 : target;
    /* a long name is cut in the temporary's, which must fit NAME_MAX */
    int k = snprintf(buf, len, "%.*s.%.200s.XXXXXX", (int)dl, target, base);
    return k > 0 && (size_t)k < len ? 0 : -1;
}

static int folder_error(const char *path, const char *target, char *err, size_t errlen)
{
    int e = errno;
    const char *slash = strrchr(target, '/');
    if (slash)
        snprintf(err, errlen, "%s: cannot create a file in %.*s: %s", path, (int)(slash - target + 1), target,
                 strerror(e));
    else
        snprintf(err, errlen, "%s: cannot create a file in the current folder: %s", path, strerror(e));
    return -1;
}

int noc_out_check(const char *path, int flags, char *err, size_t errlen)
{
    if ((flags & NOC_OUT_STDOUT) && strcmp(path, "-") == 0)
        return 0;
    char *target;
    int exists;
    struct stat st;
    if (resolve(path, &target, &exists, &st, err, errlen) != 0)
        return -1;
    int rc = 0;
    const char *slash = strrchr(target, '/');
    char *dir = slash ? strndup(target, (size_t)(slash - target) + 1) : dup_str(".");
    if (!dir) {
        fputs("noctua: out of memory\n", stderr);
        exit(4);
    }
    if (access(dir, W_OK | X_OK) != 0)
        rc = folder_error(path, target, err, errlen);
    free(dir);
    free(target);
    return rc;
}

/* Register a fresh temporary for target: created (mode set), in the table. */
static int make_temp(noc_out_t *o, const char *path, const char *companion, int keep_open, char *err,
                     size_t errlen)
{
    char *target;
    int exists;
    struct stat st;
    memset(o, 0, sizeof *o);
    o->slot = -1;
    if (companion && strlen(companion) >= COMP_MAX)
        abort(); /* a caller's constant */
    if (resolve(path, &target, &exists, &st, err, errlen) != 0)
        return -1;
    static int hooked;
    if (!hooked) {
        atexit(at_exit);
        hooked = 1;
    }
    sigset_t old;
    block(&old);
    int slot = -1;
    for (int i = 0; i < SLOTS && slot < 0; i++)
        if (!reg[i].on)
            slot = i;
    if (slot < 0 || temp_template(target, reg[slot].path, sizeof reg[slot].path) != 0) {
        unblock(&old);
        snprintf(err, errlen, "%s: %s", path, slot < 0 ? "too many outputs at once" : "path too long");
        free(target);
        return -1;
    }
    int fd = mkstemp(reg[slot].path);
    if (fd < 0) {
        unblock(&old);
        folder_error(path, target, err, errlen);
        free(target);
        return -1;
    }
    snprintf(reg[slot].comp, sizeof reg[slot].comp, "%s", companion ? companion : "");
    reg[slot].on = 1;
    unblock(&old);

    o->slot = slot;
    o->tmp = dup_str(reg[slot].path);
    o->target = target;
    o->name = dup_str(path);
    /* the permissions the target has, or a new file's */
    mode_t mode;
    if (exists) {
        mode = st.st_mode & 07777;
        if (fchown(fd, st.st_uid, st.st_gid) != 0) {
            /* not ours to give away: the file becomes the writer's, as any
             * editor's save would make it */
        }
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(fd, mode) != 0) {
        snprintf(err, errlen, "%s: cannot set the permissions of %s: %s", path, o->tmp, strerror(errno));
        close(fd);
        noc_out_abort(o);
        return -1;
    }
    if (!keep_open) {
        close(fd);
        return 0;
    }
    o->f = fdopen(fd, "w");
    if (!o->f) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        close(fd);
        noc_out_abort(o);
        return -1;
    }
    return 0;
}

int noc_out_open(noc_out_t *o, const char *path, int flags, char *err, size_t errlen)
{
    /* (under mpirun only rank 0 writes: another rank's outputs go to its
     * standard output, which cli/main.c points at /dev/null) */
    if (((flags & NOC_OUT_STDOUT) && strcmp(path, "-") == 0) || noc_ranks_rank() != 0) {
        memset(o, 0, sizeof *o);
        o->slot = -1;
        o->f = stdout;
        return 0;
    }
    return make_temp(o, path, NULL, 1, err, errlen);
}

int noc_out_reserve(noc_out_t *o, const char *path, const char *companion, char *err, size_t errlen)
{
    return make_temp(o, path, companion, 0, err, errlen);
}

static void release(noc_out_t *o)
{
    if (o->slot >= 0) {
        sigset_t old;
        block(&old);
        reg[o->slot].on = 0;
        unblock(&old);
    }
    free(o->tmp);
    free(o->target);
    free(o->name);
    memset(o, 0, sizeof *o);
    o->slot = -1;
}

void noc_out_abort(noc_out_t *o)
{
    if (!o || (!o->f && !o->tmp))
        return;
    if (o->f && o->f != stdout)
        fclose(o->f);
    if (o->tmp) {
        unlink(o->tmp);
        if (o->slot >= 0 && reg[o->slot].comp[0]) {
            char p[PATH_MAX + COMP_MAX];
            snprintf(p, sizeof p, "%s%s", o->tmp, reg[o->slot].comp);
            unlink(p);
        }
    }
    release(o);
}

/* Sync a file that another writer closed. */
static int sync_path(const char *p)
{
    int fd = open(p, O_RDONLY);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    int e = errno;
    close(fd);
    errno = e;
    return rc;
}

int noc_out_commit(noc_out_t *o, char *err, size_t errlen)
{
    int e = 0;
    const char *what = NULL;
    if (o->f == stdout) {
        errno = 0;
        if (fflush(stdout) != 0 || ferror(stdout)) {
            snprintf(err, errlen, "standard output: cannot write: %s",
                     errno ? strerror(errno) : "a write failed (disk full?)");
            clearerr(stdout);
            release(o);
            return -1;
        }
        release(o);
        return 0;
    }
    if (o->f) {
        errno = 0;
        if (fflush(o->f) != 0)
            e = errno, what = "cannot write";
        else if (ferror(o->f))
            e = EIO, what = "a write failed";
        else if (fsync(fileno(o->f)) != 0)
            e = errno, what = "cannot write";
        if (fclose(o->f) != 0 && !what)
            e = errno, what = "cannot write";
        o->f = NULL;
    } else {
        struct stat st;
        mode_t mode = 0;
        if (stat(o->tmp, &st) != 0)
            e = errno, what = "the writer left no file";
        else if (sync_path(o->tmp) != 0)
            e = errno, what = "cannot write";
        /* the writer may have made the file anew: give it the target's mode */
        struct stat tst;
        if (!what) {
            if (stat(o->target, &tst) == 0) {
                mode = tst.st_mode & 07777;
            } else {
                mode_t mask = umask(0);
                umask(mask);
                mode = 0666 & ~mask;
            }
            if ((st.st_mode & 07777) != mode && chmod(o->tmp, mode) != 0)
                e = errno, what = "cannot set permissions";
        }
    }
    if (!what && rename(o->tmp, o->target) != 0)
        e = errno, what = "cannot rename the finished file onto it";
    if (what) {
        if (e == EIO && strcmp(what, "a write failed") == 0)
            snprintf(err, errlen, "%s: a write failed (disk full?); nothing written", o->name);
        else
            snprintf(err, errlen, "%s: %s: %s; nothing written", o->name, what, strerror(e));
        noc_out_abort(o);
        return -1;
    }
    release(o);
    return 0;
}
