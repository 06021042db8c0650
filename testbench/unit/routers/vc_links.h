/* vc_links.h: helpers of the vc router's tests (test_vc.c, test_vc_spec.c):
 * run a simulation to its end under the invariant checker, and the flits
 * that arrive over one link, cycle by cycle, against a hand-worked list.
 * Header-only (static functions); include it after cmocka.h and
 * script_traffic.h. */
#ifndef NOC_TEST_VC_LINKS_H
#define NOC_TEST_VC_LINKS_H
#include "model/sim_internal.h"

/* Run the simulator to the end (window, drain, empty network) with the
 * invariant checker after every cycle (check=1 is among the settings). */
static inline void run_ok(noc_sim_t *s)
{
    assert_int_equal(noc_sim_run(s), NOC_RUN_OK);
    assert_int_equal(noc_sim_flits_in_network(s), 0);
}

/* The flits arriving over one channel: "cycle:<packet><seq>" for each, the
 * packet named by the letter its (source, creation cycle) has in names. */
typedef struct seen {
    int chan;
    const int (*names)[3]; /* { src, created, letter }, ending with src -1 */
    char text[1024];
    size_t len;
} seen_t;

static inline void seen_obs(const noc_sim_t *s, void *ctx)
{
    seen_t *v = ctx;
    uint32_t i = (uint32_t)v->chan * s->cap + (uint32_t)(s->now & s->mask);
    if (!s->ring_valid[i])
        return;
    const noc_flit_t *f = &s->ring_flit[i];
    const noc_packet_t *p = &s->pkts[f->pkt];
    char name = '?';
    for (int k = 0; v->names[k][0] >= 0; k++)
        if (v->names[k][0] == p->src && (uint64_t)v->names[k][1] == p->created)
            name = (char)v->names[k][2];
    int w = snprintf(v->text + v->len, sizeof v->text - v->len, "%s%llu:%c%u", v->len ? " " : "",
                     (unsigned long long)s->now, name, (unsigned)f->seq);
    assert_true(w > 0 && (size_t)w < sizeof v->text - v->len);
    v->len += (size_t)w;
}

/* Run script sc on spec with settings kv (checker on); the flits arriving
 * at node b from node a: the first ones must be those of want. */
static inline void expect_link(const char *spec, script_t *sc, const char *const *kv, const int (*names)[3], int a,
                               int b, const char *want)
{
    const char *all[16] = { "sample_cycles=100", "check=1" };
    int k = 2;
    for (; *kv; kv++)
        all[k++] = *kv;
    all[k] = NULL;
    noc_topo_t *t;
    noc_sim_t *s = script_sim(&t, spec, 0, sc, all);
    seen_t v = { .chan = script_link(s, a, b), .names = names };
    assert_true(v.chan >= 0);
    noc_sim_set_observer(s, seen_obs, &v);
    run_ok(s);
    if (strncmp(v.text, want, strlen(want)) != 0)
        fail_msg("link %d->%d:\n got  %s\n want %s", a, b, v.text, want);
    noc_sim_destroy(s);
    noc_topo_destroy(t);
}

#endif
