/*
** test_lockfile: .terraform.lock.hcl (core/config/lockfile.c): a file as
** Terraform writes it (version, constraints, multi-line hashes) is read,
** cairn's own kinds too, and what is written reads back the same;
** malformed lines are errors naming the line.
*/
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "config/lockfile.h"
#include "t.h"

static Arena A;
static char dir[] = "/tmp/test_lockfile.XXXXXX";

static const char *write_tmp(const char *name, const char *text)
{
  const char *p = arena_printf(&A, "%s/%s", dir, name);
  FILE *f = fopen(p, "w");
  T_CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
  return p;
}

static const char *slurp(const char *p)
{
  FILE *f = fopen(p, "r");
  static char buf[4096];
  size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f)
    fclose(f);
  buf[n] = 0;
  return buf;
}

/* As terraform init writes it, with a provider cairn has built in. */
static const char *const TF =
    "# This file is maintained automatically by \"terraform init\".\n"
    "# Manual edits may be lost in future updates.\n"
    "\n"
    "provider \"registry.terraform.io/hashicorp/null\" {\n"
    "  version     = \"3.2.0\"\n"
    "  constraints = \"~> 3.2\"\n"
    "  hashes = [\n"
    "    \"zh:58ed64389620cc7b82f01332e27723856422820cfd302e304b5f6c3436fb9840\",\n"
    "    \"h1:ydA0/SNRVB1o95btfshvYsmxA+jZFRZcvKzZSB+4S1M=\",\n"
    "  ]\n"
    "}\n"
    "\n"
    "provider \"acme.test/ref/ref\" {\n"
    "  endpoint = \"https://edge.lan:8443/cairn/v1\"\n"
    "  identity = \"sha256//x\"\n"
    "  schema   = \"sha256:00\"\n"
    "  future   = \"ignored\"\n"
    "}\n"
    "\n"
    "provider \"registry.terraform.io/hashicorp/random\" {\n"
    "  builtin = true\n"
    "}\n";

static void test_read_write(void)
{
  Lock l;
  Diags d;
  diag_init(&d, &A);
  const char *p = write_tmp("tf.hcl", TF);
  T_CHECK(lockf_read(&A, p, &l, &d));
  T_EQ_INT(d.errors, 0);
  T_EQ_INT(l.n, 3);
  const LockEnt *e = lockf_find(&l, "registry.terraform.io/hashicorp/null");
  T_CHECK(e != NULL);
  if (!e)
    return;
  T_EQ_STR(e->version, "3.2.0");
  T_EQ_STR(e->constraints, "~> 3.2");
  T_EQ_INT(e->nhashes, 2);
  T_CHECK(lockf_find(&l, "acme.test/ref/ref")->endpoint != NULL);
  T_CHECK(lockf_find(&l, "registry.terraform.io/hashicorp/random")->builtin);
  /* Written back: sorted blocks, sorted hashes; read again, the same. */
  const char *q = arena_printf(&A, "%s/out.hcl", dir);
  T_CHECK(lockf_write(&A, q, &l, &d));
  const char *out = slurp(q);
  T_CHECK(strstr(out,
                 "provider \"registry.terraform.io/hashicorp/null\" {\n"
                 "  version     = \"3.2.0\"\n"
                 "  constraints = \"~> 3.2\"\n"
                 "  hashes = [\n"
                 "    \"h1:ydA0/SNRVB1o95btfshvYsmxA+jZFRZcvKzZSB+4S1M=\",\n"
                 "    \"zh:58ed64389620cc7b82f01332e27723856422820cfd302e304b5"
                 "f6c3436fb9840\",\n"
                 "  ]\n"
                 "}\n") != NULL);
  T_CHECK(strstr(out, "acme.test/ref/ref") < strstr(out, "hashicorp/null"));
  Lock l2;
  T_CHECK(lockf_read(&A, q, &l2, &d));
  T_EQ_INT(l2.n, 3);
  /* No constraints: the '=' of a lone version is not padded. */
  LockEnt *n = lockf_add(&A, &l2, "example.com/a/b");
  n->version = "1.0.0";
  lockf_add_hash(&A, n, "h1:x");
  lockf_add_hash(&A, n, "h1:x");
  T_EQ_INT(n->nhashes, 1);
  T_CHECK(lockf_write(&A, q, &l2, &d));
  T_CHECK(strstr(slurp(q), "{\n  version = \"1.0.0\"\n  hashes = [\n") !=
          NULL);
  /* A `plugin = PATH` binary: its endpoint and its h1:, read back. */
  LockEnt *pl = lockf_add(&A, &l2, "example.com/p/q");
  pl->endpoint = "plugin:/opt/terraform-provider-q";
  lockf_add_hash(&A, pl, "h1:abc=");
  T_CHECK(lockf_write(&A, q, &l2, &d));
  T_CHECK(strstr(slurp(q), "  endpoint = \"plugin:/opt/terraform-provider-q\"\n"
                           "  identity = \"\"\n  schema   = \"\"\n"
                           "  hashes = [\n    \"h1:abc=\",\n  ]\n}\n") != NULL);
  Lock l3;
  T_CHECK(lockf_read(&A, q, &l3, &d));
  const LockEnt *r3 = lockf_find(&l3, "example.com/p/q");
  T_CHECK(r3 && r3->nhashes == 1 && strcmp(r3->hashes[0], "h1:abc=") == 0 &&
          strcmp(r3->endpoint, "plugin:/opt/terraform-provider-q") == 0);
}

static void test_missing_and_bad(void)
{
  Lock l;
  Diags d;
  diag_init(&d, &A);
  T_CHECK(lockf_read(&A, arena_printf(&A, "%s/none.hcl", dir), &l, &d));
  T_EQ_INT(l.n, 0);
  const char *p = write_tmp("bad.hcl",
                            "provider \"a/b/c\" {\n  hashes = [\n    h1,\n"
                            "  ]\n}\n");
  T_CHECK(!lockf_read(&A, p, &l, &d));
  T_EQ_INT(d.errors, 1);
  T_CHECK(d.head && strstr(d.head->detail, "bad.hcl:3 cannot be read"));
}

int main(void)
{
  arena_init(&A, 0);
  if (!mkdtemp(dir))
    return 1;
  T_RUN(test_read_write);
  T_RUN(test_missing_and_bad);
  char cmd[64];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0)
    return 1;
  arena_release(&A);
  return t_done("test_lockfile");
}
