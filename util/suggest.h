/* suggest.h: "did you mean": the closest of a list of valid names to a
 * word a user mistyped (a parameter, a value, a command, a SPEC kind), by
 * edit distance (insertions, deletions, substitutions and swaps of two
 * neighbours, case ignored), so that messages can name it. */
#ifndef NOC_SUGGEST_H
#define NOC_SUGGEST_H
#include <stddef.h>

/* The edit distance between a and b (optimal string alignment), counted
 * up to limit: any distance above it is returned as limit + 1. */
int noc_edit_distance(const char *a, const char *b, int limit);
/* The name of names[0 .. n) closest to word, or NULL when none is close
 * enough to be a likely typo: at most 1 edit for words of up to 4
 * characters, 2 up to 8, 3 above; a name that starts with word (an
 * abbreviation) also counts when word has 3 characters or more. The first
 * of equally close names wins. */
const char *noc_suggest(const char *word, const char *const *names, size_t n);
/* The same over a list of names separated by blanks or commas ("vc ideal
 * rtl"): the suggestion is copied into buf (empty when there is none).
 * Returns buf. */
const char *noc_suggest_list(const char *word, const char *list, char *buf, size_t len);
/* " (did you mean 'NAME'?)" into buf when a name is close, else "".
 * Returns buf: ready to append to a message. */
const char *noc_did_you_mean(const char *word, const char *const *names, size_t n, char *buf, size_t len);

#endif
