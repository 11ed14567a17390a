/*
** bench_state: load, snapshot write and journal-record cost of a
** 100,000-instance state.  Not a test: scripts/bench-state builds and
** runs it in a scratch directory.
**
**   bench_state DIR [N]   N instances (100000) in 1,000 resources
**
** Steps: build the state in memory and commit it (first snapshot), then
** time a fresh load (read + parse + index), a full snapshot write
** (serialize + atomic durable write), and 200 journal records of one
** changed instance each (encode + append + fdatasync + apply), reporting
** the median and the share spent in fdatasync.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/json.h"
#include "state/state.h"
#include "state/stmgr.h"

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int dcmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static StObject *mkobj(Arena *a, State *s, int i)
{
  StObject *o = st_object_new(s);
  const char *names[] = {"id", "triggers", "size", "enabled"};
  const char *tn[] = {"owner", "stage"};
  Value tv[] = {val_cstr(a, "team-a"), val_cstr(a, "prod")};
  Value v[] = {val_cstr(a, arena_printf(a, "%019d", i)),
               val_object(a, 2, tn, tv), val_int(i % 1000),
               val_bool(i % 2)};
  o->attrs = val_object(a, 4, names, v);
  static const char *deps[] = {"null_resource.base"};
  o->deps = deps;
  o->ndeps = 1;
  return o;
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: bench_state DIR [N]\n");
    return 2;
  }
  const char *dir = argv[1];
  long n = argc > 2 ? strtol(argv[2], NULL, 10) : 100000;
  Arena a;
  arena_init(&a, 1 << 22);
  Diags d;
  diag_init(&d, &a);
  StMgrOpts o = {arena_printf(&a, "%s/terraform.tfstate", dir), NULL, "-"};
  StMgr m;
  stmgr_init(&m, &a, &o);
  State *s;
  if (!stmgr_load(&m, &s, &d))
    return 1;
  long per = n / 1000 ? n / 1000 : 1;
  for (long r = 0; r * per < n; r++) {
    StResource *res = st_ensure_resource(
        s, r % 3 ? "" : "module.m", ST_MANAGED, "null_resource",
        arena_printf(&a, "r%ld", r),
        "provider[\"registry.terraform.io/hashicorp/null\"]");
    for (long k = 0; k < per && r * per + k < n; k++)
      st_set_current(s, res, st_intkey(k), mkobj(&a, s, (int)(r * per + k)));
  }
  if (!stmgr_commit(&m, s, &d))
    return 1;
  stmgr_close(&m);

  /* load */
  Arena la;
  arena_init(&la, 1 << 22);
  Diags ld;
  diag_init(&ld, &la);
  StMgr lm;
  stmgr_init(&lm, &la, &o);
  double t0 = now();
  State *ls;
  if (!stmgr_lock(&lm, "OperationTypeApply", 0, NULL, NULL, &ld) ||
      !stmgr_load(&lm, &ls, &ld))
    return 1;
  double t_load = now() - t0;
  size_t bytes = lm.orig_len;

  /* snapshot write: serialize + durable atomic write */
  StResource *r0 = st_find_resource_addr(ls, "module.m.null_resource.r0");
  st_set_current(ls, r0, st_intkey(0), mkobj(&la, ls, 7));
  t0 = now();
  Buf full;
  Arena wa;
  arena_init(&wa, 1 << 22);
  buf_init(&full, &wa);
  st_write(&full, ls, NULL);
  double t_ser = now() - t0;
  if (!stmgr_write_file(&lm, lm.out_path, full.p, full.len, &ld))
    return 1;
  double t_write = now() - t0;
  arena_release(&wa);

  /* journal records */
  enum { NREC = 200 };
  double rec[NREC];
  for (int i = 0; i < NREC; i++) {
    StObject *ob = mkobj(&la, ls, 1000000 + i);
    double t1 = now();
    if (!stmgr_record_set(&lm, ls, r0, st_intkey(i % per), NULL, ob, NULL,
                          &ld))
      return 1;
    rec[i] = now() - t1;
  }
  qsort(rec, NREC, sizeof *rec, dcmp);
  /* the fsync share: time fdatasync alone on a one-byte append */
  int fd = lm.journal_fd;
  double fs[NREC];
  for (int i = 0; i < NREC; i++) {
    double t1 = now();
    if (write(fd, "", 0) < 0 || fdatasync(fd) < 0)
      return 1;
    fs[i] = now() - t1;
  }
  qsort(fs, NREC, sizeof *fs, dcmp);
  t0 = now();
  if (!stmgr_commit(&lm, ls, &ld))
    return 1;
  double t_commit = now() - t0;
  stmgr_unlock(&lm, NULL);
  printf("instances            %ld (%zu bytes of state)\n", n, bytes);
  printf("load                 %.3f s   (target <= 0.5 s)\n", t_load);
  printf("snapshot serialize   %.3f s\n", t_ser);
  printf("snapshot write       %.3f s   (target <= 0.5 s, incl. fsync)\n",
         t_write);
  printf("commit (compaction)  %.3f s\n", t_commit);
  printf("journal record       median %.3f ms, p99 %.3f ms; fdatasync "
         "alone median %.3f ms\n",
         rec[NREC / 2] * 1e3, rec[NREC * 99 / 100] * 1e3, fs[NREC / 2] * 1e3);
  printf("record minus fsync   %.3f ms   (target <= 2 ms + one fsync)\n",
         (rec[NREC / 2] - fs[NREC / 2]) * 1e3);
  return 0;
}
