/* energy_file.c: reading an energy table file (docs/energy.md, "The
 * table file"): `key = value` lines and # comments, every key once,
 * through util/infile.h (so a directory, a device or a binary file is
 * refused by name), each line parsed by model/energy.c. */
#include "app/energy_file.h"
#include "util/infile.h"
#include <stdio.h>
#include <string.h>

int noc_app_energy_load(const char *what, noc_energy_table_t *t, char *err, size_t errlen)
{
    if (strcmp(what, "default") == 0) {
        noc_energy_default(t);
        return 0;
    }
    memset(t, 0, sizeof *t);
    noc_infile_t in;
    if (noc_in_open(&in, what, "energy table", err, errlen) != 0)
        return -1;
    uint64_t seen = 0;
    size_t len;
    int r, rc = 0;
    char msg[400];
    while ((r = noc_in_line(&in, &len, err, errlen)) == 1)
        if (noc_energy_line(t, in.buf, &seen, msg, sizeof msg) != 0) {
            snprintf(err, errlen, "%s:%lu: %s", what, in.line, msg);
            rc = -1;
            break;
        }
    if (r < 0)
        rc = -1;
    if (rc == 0 && noc_energy_complete(t, seen, msg, sizeof msg) != 0) {
        snprintf(err, errlen, "%s: %s", what, msg);
        rc = -1;
    }
    noc_in_close(&in);
    return rc;
}

int noc_app_energy_attach(noc_sim_t *s, char *err, size_t errlen)
{
    const char *what = noc_sim_config(s)->energy;
    if (!what[0])
        return 0;
    noc_energy_table_t t;
    char msg[600];
    if (noc_app_energy_load(what, &t, msg, sizeof msg) != 0) {
        snprintf(err, errlen, "parameter 'energy': %s", msg);
        return -1;
    }
    return noc_sim_set_energy(s, &t, err, errlen);
}
