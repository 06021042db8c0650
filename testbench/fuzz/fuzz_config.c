/* fuzz_config.c: the config-file reader (app/config_file.c: noctua's
 * `key = value` files through inih, BookSim2's `key = value;` ones through
 * app/booksim.c, both through util/infile.h). For every input written to a
 * file: it is read, or refused with a message that names the file; in a
 * noctua file every parameter it changed is named at the start of one of
 * its lines (a line read in two, as inih's 199-character buffer once made
 * it, sets a parameter named in the middle of a line; a BookSim2 file sets
 * BookSim2's defaults besides, cfg.booksim); an accepted one gives a SPEC
 * or a message (noc_app_spec). Refusals of a BookSim2 file's lines go to
 * stderr, named each with its line. */
#include "testbench/fuzz/fuzz_common.h"
#include "cli/cli.h"
#include <ctype.h>

/* Is name the key of one of the lines of text (after blanks, and a UTF-8
 * byte-order mark on the first; before '=' or ':'; as inih reads a key)? */
static int names_a_key(const uint8_t *text, size_t size, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < size;) {
        size_t end = i;
        while (end < size && text[end] != '\n')
            end++;
        size_t k = i;
        if (i == 0 && size >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
            k = 3;
        while (k < end && isspace(text[k]))
            k++;
        size_t e = k;
        while (e < end && text[e] != '=' && text[e] != ':')
            e++;
        size_t key_end = e;
        while (key_end > k && isspace(text[key_end - 1]))
            key_end--;
        if (e < end && key_end - k == n && memcmp(text + k, name, n) == 0)
            return 1;
        i = end + 1;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1 << 16))
        return 0;
    const char *path = fuzz_file(data, size, ".cfg");
    static noc_config_t cfg;
    char err[1024], spec[NOC_CONFIG_STR_MAX], buf[NOC_CONFIG_STR_MAX];
    noc_config_defaults(&cfg);
    err[0] = '\0';
    if (noc_app_load_file(&cfg, path, err, sizeof err) != 0) {
        if (strncmp(err, path, strlen(path)) != 0)
            FUZZ_FAIL("a refusal that does not name the file: %s", err);
        const char *at = err + strlen(path);
        if (at[0] == ':' && isdigit((unsigned char)at[1])) { /* a line's number: one of the file's */
            unsigned long line = strtoul(at + 1, NULL, 10), lines = 0;
            for (size_t i = 0; i < size; i++)
                lines += data[i] == '\n' || (i + 1 == size);
            if (line < 1 || line > lines)
                FUZZ_FAIL("a refusal at line %lu of a file of %lu lines: %s", line, lines, err);
        }
        return 0;
    }
    err[0] = '\0';
    if (noc_app_spec(&cfg, spec, sizeof spec, err, sizeof err) != 0)
        fuzz_refused(err);
    if (cfg.booksim)
        return 0; /* (BookSim2's defaults are parameters no line names) */
    static noc_config_t def;
    noc_config_defaults(&def);
    size_t n;
    const noc_param_info_t *p = noc_params(&n);
    for (size_t i = 0; i < n; i++) {
        if (noc_config_get(&cfg, p[i].name, buf, sizeof buf) != 0 ||
            noc_config_get(&def, p[i].name, spec, sizeof spec) != 0)
            FUZZ_FAIL("parameter %s does not read back", p[i].name);
        if (strcmp(buf, spec) != 0 && !names_a_key(data, size, p[i].name))
            FUZZ_FAIL("parameter %s set to '%s' by no line that names it", p[i].name, buf);
    }
    return 0;
}
