/* infile.c (util/): bounded line reading of users' text files (infile.h). */
#include "util/infile.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *kind(mode_t m)
{
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    return NULL; /* regular files and pipes are read */
}

int noc_in_open(noc_infile_t *in, const char *path, const char *what, char *err, size_t errlen)
{
    memset(in, 0, sizeof *in);
    in->path = path;
    in->f = fopen(path, "r");
    if (!in->f) {
        snprintf(err, errlen, "%s: cannot read the %s: %s", path, what, strerror(errno));
        return -1;
    }
    struct stat st;
    const char *k = fstat(fileno(in->f), &st) == 0 ? kind(st.st_mode) : "not readable";
    if (k) {
        snprintf(err, errlen, "%s: %s, not a %s", path, k, what);
        fclose(in->f);
        in->f = NULL;
        return -1;
    }
    return 0;
}

int noc_in_line(noc_infile_t *in, size_t *len, char *err, size_t errlen)
{
    size_t n = 0;
    int c;
    if (!in->buf) {
        in->cap = 256;
        in->buf = malloc(in->cap);
        if (!in->buf) {
            fputs("noctua: out of memory reading a file\n", stderr);
            exit(4);
        }
    }
    while ((c = getc_unlocked(in->f)) != EOF && c != '\n') {
        if (c == '\0') {
            snprintf(err, errlen, "%s:%lu: a NUL byte: not a text file", in->path, in->line + 1);
            return -1;
        }
        if (n + 1 >= in->cap) { /* room for c and the NUL */
            if (in->cap >= NOC_IN_LINE_MAX) {
                snprintf(err, errlen, "%s:%lu: a line of more than %u characters", in->path, in->line + 1,
                         NOC_IN_LINE_MAX - 1);
                return -1;
            }
            size_t cap = in->cap * 2 > NOC_IN_LINE_MAX ? NOC_IN_LINE_MAX : in->cap * 2;
            char *b = realloc(in->buf, cap);
            if (!b) {
                fputs("noctua: out of memory reading a file\n", stderr);
                exit(4);
            }
            in->buf = b;
            in->cap = cap;
        }
        in->buf[n++] = (char)c;
    }
    if (ferror(in->f)) {
        snprintf(err, errlen, "%s:%lu: read error: %s", in->path, in->line + 1, strerror(errno));
        return -1;
    }
    if (c == EOF && n == 0)
        return 0;
    in->line++;
    if (n > 0 && in->buf[n - 1] == '\r')
        n--;
    in->buf[n] = '\0';
    *len = n;
    return 1;
}

void noc_in_close(noc_infile_t *in)
{
    if (in->f)
        fclose(in->f);
    free(in->buf);
    memset(in, 0, sizeof *in);
}
