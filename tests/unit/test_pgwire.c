/*
** test_pgwire: net/pgwire.h without a server: connection strings in both
** of libpq's forms (and the environment under them), the message framing,
** the decoding of a query's replies and of ErrorResponse, md5 passwords,
** and SCRAM-SHA-256 against RFC 7677's test vector (and a spoofed
** server's signature refused).
*/
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "net/pgwire.h"
#include "t.h"

static Arena A;

static void clear_env(void)
{
  const char *v[] = {"PGHOST", "PGPORT", "PGUSER", "PGPASSWORD", "PGDATABASE",
                     "PGSSLMODE", "PGSSLROOTCERT", "PGSSLCERT", "PGSSLKEY",
                     "PGAPPNAME", "PGCONNECT_TIMEOUT"};
  for (size_t i = 0; i < sizeof v / sizeof *v; i++)
    unsetenv(v[i]);
  setenv("USER", "alice", 1);
}

static void test_conninfo_uri(void)
{
  clear_env();
  PgConnInfo ci;
  const char *why;
  T_CHECK(pgw_parse_conninfo(&A, "postgres://bob:p%40ss@db.example:6543/"
                             "tf%20state?sslmode=verify-full&sslrootcert=/ca"
                             "&application_name=x&search_path=s1", &ci,
                             &why));
  T_EQ_STR(ci.user, "bob");
  T_EQ_STR(ci.password, "p@ss");
  T_EQ_STR(ci.host, "db.example");
  T_EQ_STR(ci.port, "6543");
  T_EQ_STR(ci.dbname, "tf state");
  T_EQ_STR(ci.sslmode, "verify-full");
  T_EQ_STR(ci.sslrootcert, "/ca");
  T_EQ_STR(ci.application_name, "x");
  T_EQ_INT(ci.nextra, 1);
  T_EQ_STR(ci.extra_keys[0], "search_path");
  T_EQ_STR(ci.extra_vals[0], "s1");

  /* defaults: lib/pq's localhost:5432, sslmode require, user = $USER */
  T_CHECK(pgw_parse_conninfo(&A, "postgresql://", &ci, &why));
  T_EQ_STR(ci.host, "localhost");
  T_EQ_STR(ci.port, "5432");
  T_EQ_STR(ci.user, "alice");
  T_EQ_STR(ci.dbname, "alice");
  T_EQ_STR(ci.sslmode, "require");
  T_CHECK(ci.password == NULL);

  T_CHECK(pgw_parse_conninfo(&A, "postgres://[::1]:7000/db", &ci, &why));
  T_EQ_STR(ci.host, "::1");
  T_EQ_STR(ci.port, "7000");
  T_CHECK(pgw_parse_conninfo(&A, "postgres://%2Fvar%2Frun/db", &ci, &why));
  T_EQ_STR(ci.host, "/var/run");

  T_CHECK(!pgw_parse_conninfo(&A, "postgres://h:99999/db", &ci, &why));
  T_EQ_STR(why, "invalid port number \"99999\"");
  T_CHECK(!pgw_parse_conninfo(&A, "postgres://h/db?sslmode=sometimes", &ci,
                              &why));
  T_EQ_STR(why, "invalid sslmode value: \"sometimes\"");
  T_CHECK(!pgw_parse_conninfo(&A, "postgres://a,b/db", &ci, &why));
  T_CHECK(!pgw_parse_conninfo(&A, "postgres://h/db?x", &ci, &why));
  T_CHECK(!pgw_parse_conninfo(&A, "postgres://u:%zz@h/db", &ci, &why));
  /* a password never appears in a reason */
  T_CHECK(why && strstr(why, "zz") == NULL);
}

static void test_conninfo_keywords(void)
{
  clear_env();
  PgConnInfo ci;
  const char *why;
  T_CHECK(pgw_parse_conninfo(&A, "host=/tmp/pg port = 5433 user=carol "
                             "password='it''s' dbname='a b' sslmode=disable",
                             &ci, &why) == false);
  T_CHECK(pgw_parse_conninfo(&A, "host=/tmp/pg port = 5433 user=carol "
                             "password='it\\'s' dbname='a b' "
                             "sslmode=disable connect_timeout=7", &ci, &why));
  T_EQ_STR(ci.host, "/tmp/pg");
  T_EQ_STR(ci.port, "5433");
  T_EQ_STR(ci.password, "it's");
  T_EQ_STR(ci.dbname, "a b");
  T_EQ_STR(ci.sslmode, "disable");
  T_EQ_INT(ci.connect_timeout, 7);
  T_CHECK(!pgw_parse_conninfo(&A, "host", &ci, &why));
  T_CHECK(!pgw_parse_conninfo(&A, "password='open", &ci, &why));
  T_CHECK(!pgw_parse_conninfo(&A, "connect_timeout=soon", &ci, &why));

  /* the environment under the string, the string winning */
  setenv("PGHOST", "envhost", 1);
  setenv("PGUSER", "envuser", 1);
  setenv("PGPASSWORD", "envpw", 1);
  setenv("PGSSLMODE", "verify-ca", 1);
  T_CHECK(pgw_parse_conninfo(&A, "user=dave", &ci, &why));
  T_EQ_STR(ci.host, "envhost");
  T_EQ_STR(ci.user, "dave");
  T_EQ_STR(ci.password, "envpw");
  T_EQ_STR(ci.sslmode, "verify-ca");
  clear_env();
}

static void put32(Buf *b, uint32_t v)
{
  char t[4] = {(char)(v >> 24), (char)(v >> 16), (char)(v >> 8), (char)v};
  buf_put(b, t, 4);
}

/* Appends a message of type t with body p[0..n). */
static void msg(Buf *b, char t, const void *p, size_t n)
{
  buf_putc(b, t);
  put32(b, (uint32_t)n + 4);
  buf_put(b, p, n);
}

static void test_framing(void)
{
  Buf b;
  buf_init(&b, &A);
  msg(&b, 'Z', "I", 1);
  PgMsg m;
  T_EQ_INT(pgw_msg_next((const uint8_t *)b.p, b.len, &m), 6);
  T_EQ_INT(m.type, 'Z');
  T_EQ_INT(m.len, 1);
  T_EQ_INT(pgw_msg_next((const uint8_t *)b.p, 4, &m), 0);      /* partial */
  T_EQ_INT(pgw_msg_next((const uint8_t *)b.p, 5, &m), 0);
  const uint8_t bad[5] = {'Z', 0, 0, 0, 3};                     /* len < 4 */
  T_EQ_INT(pgw_msg_next(bad, 5, &m), -1);
  const uint8_t huge[5] = {'D', 0x7f, 0xff, 0xff, 0xff};
  T_EQ_INT(pgw_msg_next(huge, 5, &m), -1);
}

/* Feeds every message of b; returns the last feed result. */
static int feed_all(Buf *b, PgResult *r, PgError *e, bool *failed)
{
  size_t at = 0;
  int rc = 0;
  PgMsg m;
  long k;
  while ((k = pgw_msg_next((const uint8_t *)b->p + at, b->len - at, &m)) > 0) {
    rc = pgw_result_feed(&A, &m, r, e, failed);
    at += (size_t)k;
    if (rc)
      break;
  }
  return rc;
}

static void test_result(void)
{
  Buf b, body;
  buf_init(&b, &A);
  buf_init(&body, &A);
  msg(&b, '1', "", 0);
  msg(&b, '2', "", 0);
  /* RowDescription: 2 columns "id", "data" */
  buf_put(&body, "\0\2", 2);
  buf_put(&body, "id\0", 3);
  buf_put(&body, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 18);
  buf_put(&body, "data\0", 5);
  buf_put(&body, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 18);
  msg(&b, 'T', body.p, body.len);
  buf_clear(&body);
  buf_put(&body, "\0\2", 2);
  put32(&body, 1);
  buf_put(&body, "7", 1);
  put32(&body, 0xffffffffu);                       /* NULL */
  msg(&b, 'D', body.p, body.len);
  buf_clear(&body);
  buf_put(&body, "\0\2", 2);
  put32(&body, 2);
  buf_put(&body, "42", 2);
  put32(&body, 3);
  buf_put(&body, "{ }", 3);
  msg(&b, 'D', body.p, body.len);
  msg(&b, 'C', "SELECT 2", 9);
  msg(&b, 'Z', "I", 1);
  PgResult r;
  memset(&r, 0, sizeof r);
  PgError e;
  bool failed = false;
  T_EQ_INT(feed_all(&b, &r, &e, &failed), 1);
  T_CHECK(!failed);
  T_EQ_INT(r.ncols, 2);
  T_EQ_STR(r.cols[1], "data");
  T_EQ_INT(r.nrows, 2);
  T_EQ_STR(r.rows[0][0], "7");
  T_CHECK(r.rows[0][1] == NULL);
  T_EQ_STR(r.rows[1][1], "{ }");
  T_EQ_INT(r.lens[1][1], 3);
  T_EQ_STR(r.tag, "SELECT 2");
  /* a second description after rows (found by fuzz_pgwire) is refused */
  PgMsg t = {'T', (const uint8_t *)"\0\0", 2};
  failed = false;
  T_EQ_INT(pgw_result_feed(&A, &t, &r, &e, &failed), -1);
  T_CHECK(failed);

  /* a DataRow whose column length runs past its message */
  buf_clear(&b);
  buf_clear(&body);
  buf_put(&body, "\0\1", 2);
  put32(&body, 100);
  buf_put(&body, "x", 1);
  memset(&r, 0, sizeof r);
  r.ncols = 1;
  failed = false;
  msg(&b, 'D', body.p, body.len);
  T_EQ_INT(feed_all(&b, &r, &e, &failed), -1);
  T_CHECK(failed);
  T_CHECK(strstr(e.message, "malformed") != NULL);
}

static void test_error(void)
{
  static const char f[] = "SERROR\0VERROR\0C28P01\0Mpassword authentication "
                          "failed for user \"x\"\0Dsome detail\0Ha hint\0";
  PgError e;
  T_CHECK(pgw_parse_error(&A, (const uint8_t *)f, sizeof f, &e));
  T_EQ_STR(e.sqlstate, "28P01");
  T_EQ_STR(e.severity, "ERROR");
  T_EQ_STR(e.message, "password authentication failed for user \"x\"");
  T_EQ_STR(e.detail, "some detail");
  T_EQ_STR(e.hint, "a hint");
  /* a field without its NUL is refused, the fields before it kept */
  T_CHECK(!pgw_parse_error(&A, (const uint8_t *)"C12345\0Mtrunc", 13, &e));
  T_EQ_STR(e.sqlstate, "12345");
}

static void test_md5(void)
{
  const uint8_t salt[4] = {1, 2, 3, 4};
  T_EQ_STR(pgw_md5_password(&A, "postgres", "pencil", salt),
           "md5dba33b405438ce4ca5423846a9bffead");
}

/* RFC 7677, section 3. */
static void test_scram_rfc7677(void)
{
  PgScram s;
  memset(&s, 0, sizeof s);
  T_EQ_STR(pgw_scram_first(&A, &s, "user", "rOprNGfwEbeRWgbNEkqO"),
           "n,,n=user,r=rOprNGfwEbeRWgbNEkqO");
  static const char sf[] = "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)"
                           "hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
  const char *why = NULL;
  T_EQ_STR(pgw_scram_final(&A, &s, sf, strlen(sf), "pencil", &why),
           "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
           "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=");
  static const char fin[] = "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";
  T_CHECK(pgw_scram_verify(&s, fin, strlen(fin), &why));
  static const char spoof[] = "v=7rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";
  T_CHECK(!pgw_scram_verify(&s, spoof, strlen(spoof), &why));
  T_CHECK(strstr(why, "signature") != NULL);
  T_CHECK(!pgw_scram_verify(&s, "e=invalid-proof", 15, &why));
}

static void test_scram_refusals(void)
{
  PgScram s;
  memset(&s, 0, sizeof s);
  pgw_scram_first(&A, &s, "", "abc");
  const char *why = NULL;
  /* a nonce that does not extend ours */
  T_CHECK(!pgw_scram_final(&A, &s, "r=xyz1,s=QUJD,i=4096", 20, "pw", &why));
  T_CHECK(strstr(why, "nonce") != NULL);
  T_CHECK(!pgw_scram_final(&A, &s, "r=abc1,s=QUJD,i=0", 17, "pw", &why));
  T_CHECK(!pgw_scram_final(&A, &s, "r=abc1,s=QUJD,i=99999999", 24, "pw",
                           &why));
  T_EQ_STR(why, "invalid iteration count");
  T_CHECK(!pgw_scram_final(&A, &s, "r=abc1,s=!!,i=1", 15, "pw", &why));
  T_EQ_STR(why, "invalid salt");
  T_CHECK(!pgw_scram_final(&A, &s, "m=ext,r=abc1,s=QUJD,i=1", 23, "pw", &why));
  T_CHECK(!pgw_scram_final(&A, &s, "r=abc1", 6, "pw", &why));
}

int main(void)
{
  arena_init(&A, 0);
  T_RUN(test_conninfo_uri);
  T_RUN(test_conninfo_keywords);
  T_RUN(test_framing);
  T_RUN(test_result);
  T_RUN(test_error);
  T_RUN(test_md5);
  T_RUN(test_scram_rfc7677);
  T_RUN(test_scram_refusals);
  arena_release(&A);
  return t_done("test_pgwire");
}
