/* booksim_doc.c: the table of BookSim2's keys as Markdown (docs/booksim.md,
 * `noctua params --booksim`), from the reader's own table (booksim.c). */
#include "app/booksim.h"
#include <stdio.h>


static const char *disp_name(noc_bs_disp_t d)
{
    switch (d) {
    case NOC_BS_SAME: return "mapped: same meaning";
    case NOC_BS_CONV: return "mapped: converted";
    case NOC_BS_FIXED: return "mapped: honoured values only";
    case NOC_BS_WARN: return "warned: no effect";
    case NOC_BS_REFUSE: return "refused";
    }
    return "";
}

static void md_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else
            fputc(*s, f);
    }
}

void noc_bs_print_keys_md(FILE *f)
{
    size_t n_keys;
    const noc_bs_key_t *keys = noc_bs_keys(&n_keys);
    int count[5] = { 0 };
    for (size_t i = 0; i < n_keys; i++)
        count[keys[i].disp]++;
    fprintf(f, "%zu keys: %d mapped (%d with the same meaning, %d converted, %d honoured at some values only), "
               "%d warned, %d refused.\n\n",
            n_keys, count[0] + count[1] + count[2], count[0], count[1], count[2], count[3], count[4]);
    fprintf(f, "| BookSim2 key | BookSim2 default | in noctua | honoured values | noctua parameters | how, or why not |\n"
               "|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < n_keys; i++) {
        const noc_bs_key_t *k = &keys[i];
        fprintf(f, "| `%s` | %s%s%s | %s | ", k->key, k->def[0] ? "`" : "", k->def[0] ? k->def : "(empty)",
                k->def[0] ? "`" : "", disp_name(k->disp));
        if (k->honoured[0]) {
            char alts[256];
            md_text(f, noc_bs_honoured_list(k, alts, sizeof alts));
        } else {
            fputs(k->disp <= NOC_BS_CONV ? "any" : "", f);
        }
        fprintf(f, " | %s%s%s | ", k->noctua[0] ? "`" : "", k->noctua, k->noctua[0] ? "`" : "");
        md_text(f, k->note);
        fputs(" |\n", f);
    }
}
