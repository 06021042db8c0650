/* explore_ini.c: a study file of noctua explore (cli/explore_ini.h).
 *
 *   [explore]      output = PREFIX, jobs = N, area = 0|1, quiet = 0|1
 *   [fabrics]      one FABRIC a line (braces as on the command line)
 *   [parameters]   key = value a line (key = {a,b}: a varied parameter)
 *   [workloads]    one NAME[:WORDS] a line (as --program), or
 *                  program = NAME[:WORDS], program-file = FILE,
 *                  traffic = PATTERN[@RATES]
 *
 * A # or ; at the start of a line or after a blank starts a comment. */
#include "cli/explore_ini.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

enum { S_NONE, S_EXPLORE, S_FABRICS, S_PARAMETERS, S_WORKLOADS };

/* s with the blanks at both ends taken off (in place). */
static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

static int section(const char *name)
{
    static const char *const names[] = { "explore", "fabrics", "parameters", "workloads" };
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0)
            return S_EXPLORE + i;
    return S_NONE;
}

/* "key = value" into key and value (trimmed); -1 when there is no '='. */
static int split_kv(char *line, char **key, char **value)
{
    char *eq = strchr(line, '=');
    if (!eq)
        return -1;
    *eq = '\0';
    *key = trim(line);
    *value = trim(eq + 1);
    return **key && **value ? 0 : -1;
}

/* One line of [explore] or [parameters] into an item. */
static int setting(int sec, char *line, explore_item_fn fn, void *ctx, const char *where, char *err, size_t errlen)
{
    char *key, *value;
    if (split_kv(line, &key, &value) != 0) {
        snprintf(err, errlen, "%s: expected key = value", where);
        return -1;
    }
    if (sec == S_PARAMETERS) {
        char kv[1024];
        if ((size_t)snprintf(kv, sizeof kv, "%s=%s", key, value) >= sizeof kv) {
            snprintf(err, errlen, "%s: too long", where);
            return -1;
        }
        return fn(ctx, EXPLORE_ITEM_OPERAND, kv, where);
    }
    static const char *const keys[] = { "output", "jobs", "area", "quiet" };
    static const explore_item_kind_t kinds[] = { EXPLORE_ITEM_OUTPUT, EXPLORE_ITEM_JOBS, EXPLORE_ITEM_AREA,
                                                 EXPLORE_ITEM_QUIET };
    for (int i = 0; i < 4; i++) {
        if (strcmp(key, keys[i]) != 0)
            continue;
        if (i >= 2 && strcmp(value, "0") != 0 && strcmp(value, "1") != 0) {
            snprintf(err, errlen, "%s: %s = %s: expected 0 or 1", where, key, value);
            return -1;
        }
        return fn(ctx, kinds[i], value, where);
    }
    snprintf(err, errlen, "%s: unknown key '%s' in [explore] (output, jobs, area, quiet)", where, key);
    return -1;
}

/* A "kind = value" line of [workloads]. */
static int workload(char *line, explore_item_fn fn, void *ctx, const char *where, char *err, size_t errlen)
{
    char *key, *value;
    if (split_kv(line, &key, &value) != 0) {
        snprintf(err, errlen, "%s: expected program = NAME[:WORDS], program-file = FILE or traffic = PATTERN[@RATES]",
                 where);
        return -1;
    }
    if (strcmp(key, "program") == 0)
        return fn(ctx, EXPLORE_ITEM_PROGRAM, value, where);
    if (strcmp(key, "program-file") == 0)
        return fn(ctx, EXPLORE_ITEM_PROGRAM_FILE, value, where);
    if (strcmp(key, "traffic") == 0)
        return fn(ctx, EXPLORE_ITEM_TRAFFIC, value, where);
    snprintf(err, errlen, "%s: unknown key '%s' in [workloads] (program, program-file, traffic)", where, key);
    return -1;
}

int explore_ini_read(const char *path, explore_item_fn fn, void *ctx, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    char buf[2048], where[1200];
    int sec = S_NONE, lineno = 0, rc = 0;
    while (rc == 0 && fgets(buf, sizeof buf, f)) {
        lineno++;
        snprintf(where, sizeof where, "%.1100s:%d", path, lineno);
        if (!strchr(buf, '\n') && !feof(f)) {
            snprintf(err, errlen, "%s: line too long (at most %zu characters)", where, sizeof buf - 2);
            rc = -1;
            break;
        }
        for (char *c = buf; *c; c++) /* a comment after a blank ends the line */
            if ((*c == '#' || *c == ';') && (c == buf || isspace((unsigned char)c[-1]))) {
                *c = '\0';
                break;
            }
        char *line = trim(buf);
        if (!*line)
            continue;
        size_t n = strlen(line);
        if (*line == '[') {
            char *name = line + 1;
            if (line[n - 1] == ']')
                line[n - 1] = '\0';
            if ((sec = section(trim(name))) == S_NONE || line[n - 1] != '\0') {
                snprintf(err, errlen, "%s: unknown section '%s' (explore, fabrics, parameters, workloads)", where,
                         name);
                rc = -1;
            }
            continue;
        }
        if (sec == S_NONE) {
            snprintf(err, errlen, "%s: '%s' before any [section]", where, line);
            rc = -1;
        } else if (sec == S_WORKLOADS && strchr(line, '=')) {
            rc = workload(line, fn, ctx, where, err, errlen);
        } else if (sec == S_FABRICS || sec == S_WORKLOADS) {
            if (sec == S_FABRICS && strchr(line, '=')) {
                snprintf(err, errlen, "%s: '%s' in [fabrics]: parameters go in [parameters]", where, line);
                rc = -1;
            } else {
                rc = fn(ctx, sec == S_FABRICS ? EXPLORE_ITEM_OPERAND : EXPLORE_ITEM_PROGRAM, line, where);
            }
        } else {
            rc = setting(sec, line, fn, ctx, where, err, errlen);
        }
    }
    fclose(f);
    return rc;
}
