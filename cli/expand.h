/* expand.h: brace ranges and lists in noctua explore's operands
 * (cli/expand.c): "mesh:{2..4}x{2,4}" is mesh:2x2 mesh:2x4 mesh:3x2 ...,
 * the leftmost brace varying slowest. Braces inside (..) are literal
 * (traffic=hotspot({0,9},{1,3}) is one value). Internal to cli/. */
#ifndef NOC_CLI_EXPAND_H
#define NOC_CLI_EXPAND_H
#include <stddef.h>

#define NOC_EXPAND_LEN 256

/* Every word of pattern into out[0 .. max) (each < NOC_EXPAND_LEN): {A..B}
 * the whole numbers A to B (A <= B), {a,b,c} each item (not empty, no brace
 * inside). Returns the number of words, or -1 with a message in err naming
 * the pattern (an unclosed or empty brace, a bad range, more than max
 * words, a word too long). */
int noc_expand(const char *pattern, char (*out)[NOC_EXPAND_LEN], int max, char *err, size_t errlen);

#endif
