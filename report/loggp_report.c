/* loggp_report.c: the report of a program timed by LogGOPSim's model
 * (`noctua run --timing loggp`, model/loggp.h), as text and JSON: the
 * result check, the finishing time (LogGOPSim's "maximum finishing time")
 * and every rank's, the operations, the messages (eager and rendezvous),
 * and the parameters. There is no network here, so no links or steps. */
#include "report/report.h"
#include "report/json_internal.h"
#include "util/version.h"
#include <string.h>

void noc_report_loggp_text(FILE *f, const noc_loggp_t *lg, const noc_program_t *p, const noc_loggp_params_t *lp,
                           const char *spec, const noc_prog_result_t *res)
{
    const noc_loggp_stats_t *st = noc_loggp_stats(lg);
    fprintf(f, "noctua %s: program %s (%d ranks, placed on %s), timing loggp: LogGOPSim's model, no network\n",
            noc_version(), p->name ? p->name : res->name, p->n_ranks, spec);
    fprintf(f, "  parameters    L=%lld o=%lld g=%lld G=%lld O=%lld S=%lld; %d CPU%s and %d NIC%s a rank\n",
            (long long)lp->L, (long long)lp->o, (long long)lp->g, (long long)lp->G, (long long)lp->O,
            (long long)lp->S, st->ncpus, st->ncpus == 1 ? "" : "s", st->nnics, st->nnics == 1 ? "" : "s");
    if (strcmp(res->verdict, "ok") == 0 && p->n_expect == 0)
        fprintf(f, "  result        not data-checked: the program states no expected values (expect)\n");
    else if (strcmp(res->verdict, "ok") == 0)
        fprintf(f, "  result        ok: %u values checked on %d ranks\n", p->n_expect, p->n_ranks);
    else
        fprintf(f, "  result        %s: %s\n", res->verdict, res->error[0] ? res->error : "the run stopped");
    fprintf(f, "  finish        %llu time units, at rank %d\n", (unsigned long long)st->finish, st->finish_rank);
    if (p->n_ranks <= 16) {
        fprintf(f, "  ranks        ");
        for (int r = 0; r < p->n_ranks; r++)
            fprintf(f, " %d: %llu%s", r, (unsigned long long)noc_loggp_rank_finish(lg, r),
                    r + 1 < p->n_ranks ? "," : "\n");
    }
    uint64_t sends, recvs, computes;
    noc_report_count_kinds(p, &sends, &recvs, &computes);
    fprintf(f, "  operations    %llu of %llu done: %llu sends, %llu receives, %llu computations\n",
            (unsigned long long)st->ops_done, (unsigned long long)st->ops, (unsigned long long)sends,
            (unsigned long long)recvs, (unsigned long long)computes);
    fprintf(f, "  messages      %llu (%llu bytes): %llu eager, %llu rendezvous\n", (unsigned long long)st->messages,
            (unsigned long long)st->bytes, (unsigned long long)st->eager, (unsigned long long)st->rendezvous);
    fprintf(f, "  events        %llu\n", (unsigned long long)st->events);
    fprintf(f, "  wall clock    %.3f s\n", res->seconds);
}

static json_t *loggp_json(const noc_loggp_t *lg, const noc_program_t *p, const noc_loggp_params_t *lp,
                          const char *spec, const noc_prog_result_t *res)
{
    const noc_loggp_stats_t *st = noc_loggp_stats(lg);
    json_t *j = json_object();
    json_object_set_new(j, "noctua", json_string(noc_version()));
    json_object_set_new(j, "program", json_string(p->name ? p->name : res->name));
    json_object_set_new(j, "topology", json_string(spec));
    json_object_set_new(j, "ranks", json_integer(p->n_ranks));
    json_object_set_new(j, "timing", json_string("loggp"));
    json_object_set_new(j, "loggp", json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:i, s:i}", "L", (json_int_t)lp->L,
                                              "o", (json_int_t)lp->o, "g", (json_int_t)lp->g, "G",
                                              (json_int_t)lp->G, "O", (json_int_t)lp->O, "S", (json_int_t)lp->S,
                                              "cpus", st->ncpus, "nics", st->nnics));
    json_object_set_new(j, "result", json_string(res->verdict));
    json_object_set_new(j, "values_checked", json_integer((json_int_t)p->n_expect)); /* 0: not data-checked */
    if (res->error[0])
        json_object_set_new(j, "error", json_string(res->error));
    json_object_set_new(j, "interrupted", json_boolean(res->status == NOC_RUN_INTERRUPTED));
    json_object_set_new(j, "finish", json_integer((json_int_t)st->finish));
    json_object_set_new(j, "finish_rank", json_integer(st->finish_rank));
    json_t *ranks = json_array();
    for (int r = 0; r < p->n_ranks; r++)
        json_array_append_new(ranks, json_integer((json_int_t)noc_loggp_rank_finish(lg, r)));
    json_object_set_new(j, "rank_finish", ranks);
    json_object_set_new(j, "operations", noc_report_operations_json(p, st->ops, st->ops_done));
    json_object_set_new(j, "messages", json_integer((json_int_t)st->messages));
    json_object_set_new(j, "bytes", json_integer((json_int_t)st->bytes));
    json_object_set_new(j, "eager", json_integer((json_int_t)st->eager));
    json_object_set_new(j, "rendezvous", json_integer((json_int_t)st->rendezvous));
    json_object_set_new(j, "events", json_integer((json_int_t)st->events));
    return j;
}

int noc_report_loggp_json(const noc_loggp_t *lg, const noc_program_t *p, const noc_loggp_params_t *lp,
                          const char *spec, const noc_prog_result_t *res, const char *path, char *err,
                          size_t errlen)
{
    return noc_report_write_json(loggp_json(lg, p, lp, spec, res), path, err, errlen);
}
