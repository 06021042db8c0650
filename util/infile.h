/* infile.h (util/): reading the text files a user gives noctua (config
 * files, graph files, programs), so that no input can hang or swamp it:
 *   - a file is a regular file or a pipe (a FIFO, a shell's <(...));
 *     a directory, a device (/dev/zero would never end), or a socket is
 *     refused, naming what it is;
 *   - lines are read whole, of any length below NOC_IN_LINE_MAX characters,
 *     and a longer one is refused with its number, never cut in two;
 *   - a NUL byte is refused with its line's number (text has none; a binary
 *     file given by mistake has them at once).
 * Messages are "PATH:LINE: ...". docs/reliability.md, "Inputs". */
#ifndef NOC_INFILE_H
#define NOC_INFILE_H
#include <stddef.h>
#include <stdio.h>
#ifdef __cplusplus
extern "C" {
#endif

#define NOC_IN_LINE_MAX (1u << 20) /* a line has fewer characters (1 MiB - 1 at most) */

typedef struct noc_infile {
    FILE *f;
    const char *path;   /* as given, for messages (borrowed) */
    unsigned long line; /* number of the line last read (1 for the first) */
    char *buf;          /* the line last read, NUL-terminated, newline removed */
    size_t cap;
} noc_infile_t;

/* Open path for reading; what names the kind of file in messages ("config
 * file", "program"). 0, or -1 with a message in err. */
int noc_in_open(noc_infile_t *in, const char *path, const char *what, char *err, size_t errlen);

/* The next line into in->buf (its length in *len, newline and a carriage
 * return before it removed). 1: a line; 0: the end of the file; -1: a line
 * too long, a NUL byte or a read error, with "PATH:LINE: ..." in err. */
int noc_in_line(noc_infile_t *in, size_t *len, char *err, size_t errlen);

void noc_in_close(noc_infile_t *in);

#ifdef __cplusplus
}
#endif
#endif
