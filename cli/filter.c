/* filter.c: noc_cli_filter (filter.h), with fork, dup2 and execvp. */
#include "cli/filter.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

int noc_cli_filter(const char *const argv[], const char *in_path, FILE *out, size_t *n)
{
    *n = 0;
    int in = open(in_path ? in_path : "/dev/null", O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return -1;
    int fd[2];
    if (pipe(fd) != 0) {
        close(in);
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(in);
        close(fd[0]);
        close(fd[1]);
        errno = e;
        return -1;
    }
    if (pid == 0) {
        if (dup2(in, STDIN_FILENO) < 0 || dup2(fd[1], STDOUT_FILENO) < 0)
            _exit(127);
        close(fd[0]);
        close(fd[1]);
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(in);
    close(fd[1]);
    char buf[1 << 14];
    for (;;) {
        ssize_t k = read(fd[0], buf, sizeof buf);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        fwrite(buf, 1, (size_t)k, out); /* the caller's commit checks it */
        *n += (size_t)k;
    }
    close(fd[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return st;
}

int noc_cli_on_path(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    for (const char *p = path;;) {
        const char *e = strchr(p, ':');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char full[4096];
        if (len == 0)
            snprintf(full, sizeof full, "./%s", prog);
        else
            snprintf(full, sizeof full, "%.*s/%s", (int)len, p, prog);
        if (access(full, X_OK) == 0)
            return 1;
        if (!e)
            return 0;
        p = e + 1;
    }
}
