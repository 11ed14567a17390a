/*
** Unit tests for the function library (core/funcs*.c).
**
** Most cases are table-driven: the .txt files in tests/funcs hold lines
**
**     EXPR <TAB> EXPECTED
**
** where EXPR is an HCL function call whose arguments are literals or
** nested calls, and EXPECTED is the result rendered canonically (see
** render() below: console-like, one line) or "error: <substring>" for a
** failing call (the substring is matched against the diagnostic detail).
** A tiny literal-only call parser lives here until cases can run through
** the real evaluator; it understands strings with HCL escapes, numbers,
** true/false/null, [tuples], {objects}, nested calls, and the pseudo
** values unknown, unknown_string, unknown_number, null_string.
** Relative file names resolve against tests/funcs/data.
*/
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "lang/funcs.h"
#include "lang/funcs_impl.h"
#include "t.h"

static Arena A;

/* ---- Literal-call parser -------------------------------------------------- */

typedef struct P {
  const char *s;
  size_t i, n;
  const char *err;
  FnCall *fc;
} P;

static void ws(P *p)
{
  while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' ||
                         p->s[p->i] == '\n'))
    p->i++;
}

static bool parse_expr(P *p, Value *out);

static bool parse_string(P *p, Value *out)
{
  Buf b;
  buf_init(&b, &A);
  p->i++;
  while (p->i < p->n && p->s[p->i] != '"') {
    char ch = p->s[p->i++];
    if (ch != '\\') {
      buf_putc(&b, ch);
      continue;
    }
    if (p->i >= p->n)
      break;
    ch = p->s[p->i++];
    switch (ch) {
    case 'n': buf_putc(&b, '\n'); break;
    case 't': buf_putc(&b, '\t'); break;
    case 'r': buf_putc(&b, '\r'); break;
    case '"': buf_putc(&b, '"'); break;
    case '\\': buf_putc(&b, '\\'); break;
    case 'u': {
      unsigned v = 0;
      for (int k = 0; k < 4 && p->i < p->n; k++) {
        char h = p->s[p->i++];
        v = v * 16 + (unsigned)(h <= '9' ? h - '0' : (h | 32) - 'a' + 10);
      }
      buf_put_utf8(&b, v);
      break;
    }
    default:
      p->err = "bad escape";
      return false;
    }
  }
  if (p->i >= p->n) {
    p->err = "unterminated string";
    return false;
  }
  p->i++;
  *out = fn_buf_val(&b);
  return true;
}

static bool ident_char(char ch)
{
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
         (ch >= '0' && ch <= '9') || ch == '_' || ch == ':' || ch == '-';
}

static bool parse_call(P *p, const char *name, Value *out)
{
  Value args[64];
  uint32_t n = 0;
  p->i++;   /* ( */
  ws(p);
  bool expand = false;
  while (p->i < p->n && p->s[p->i] != ')') {
    if (n == 64 || !parse_expr(p, &args[n]))
      return false;
    n++;
    ws(p);
    if (p->i + 2 < p->n && !strncmp(p->s + p->i, "...", 3)) {
      expand = true;
      p->i += 3;
      ws(p);
    }
    if (p->i < p->n && p->s[p->i] == ',') {
      p->i++;
      ws(p);
    }
  }
  if (p->i >= p->n) {
    p->err = "unterminated call";
    return false;
  }
  p->i++;
  if (expand && n > 0) {
    Value last = args[--n];
    for (uint32_t k = 0; k < last.len && n < 64; k++)
      args[n++] = last.u.elems[k];
  }
  const FnDef *f = fn_lookup(name);
  if (!f) {
    p->err = arena_printf(&A, "no function %s", name);
    return false;
  }
  if (!fn_call(f, p->fc, args, n, out)) {
    p->err = arena_printf(&A, "error: %s", p->fc->err.detail);
    return false;
  }
  return true;
}

static bool parse_expr(P *p, Value *out)
{
  ws(p);
  if (p->i >= p->n) {
    p->err = "unexpected end";
    return false;
  }
  char ch = p->s[p->i];
  if (ch == '"')
    return parse_string(p, out);
  if (ch == '-' || (ch >= '0' && ch <= '9')) {
    size_t st = p->i++;
    while (p->i < p->n && (strchr("0123456789.eE", p->s[p->i]) ||
                           ((p->s[p->i] == '-' || p->s[p->i] == '+') &&
                            (p->s[p->i - 1] | 32) == 'e')))
      p->i++;
    if (!val_parse_number(&A, p->s + st, p->i - st, false, out)) {
      p->err = "bad number";
      return false;
    }
    return true;
  }
  if (ch == '[') {
    Value el[256];
    uint32_t n = 0;
    p->i++;
    ws(p);
    while (p->i < p->n && p->s[p->i] != ']') {
      if (n == 256 || !parse_expr(p, &el[n]))
        return false;
      n++;
      ws(p);
      if (p->i < p->n && p->s[p->i] == ',')
        p->i++;
      ws(p);
    }
    p->i++;
    Value *v = ARENA_NEW(&A, Value, n ? n : 1);
    memcpy(v, el, n * sizeof(Value));
    *out = val_tuple(&A, v, n);
    return true;
  }
  if (ch == '{') {
    const char *names[128];
    Value vals[128];
    uint32_t n = 0;
    p->i++;
    ws(p);
    while (p->i < p->n && p->s[p->i] != '}') {
      Value k;
      if (n == 128)
        return false;
      if (p->s[p->i] == '"') {
        if (!parse_string(p, &k))
          return false;
      } else {
        size_t st = p->i;
        while (p->i < p->n && ident_char(p->s[p->i]))
          p->i++;
        k = val_str(&A, p->s + st, p->i - st);
      }
      ws(p);
      if (p->i < p->n && (p->s[p->i] == '=' || p->s[p->i] == ':'))
        p->i++;
      if (!parse_expr(p, &vals[n]))
        return false;
      /* Later duplicates win, as in HCL object constructors... which
      ** actually reject them; the cases never use duplicates. */
      names[n++] = k.u.s;
      ws(p);
      if (p->i < p->n && p->s[p->i] == ',')
        p->i++;
      ws(p);
    }
    p->i++;
    *out = val_object(&A, n, names, vals);
    return true;
  }
  size_t st = p->i;
  while (p->i < p->n && ident_char(p->s[p->i]))
    p->i++;
  const char *name = arena_strndup(&A, p->s + st, p->i - st);
  ws(p);
  if (p->i < p->n && p->s[p->i] == '(')
    return parse_call(p, name, out);
  if (!strcmp(name, "true"))
    *out = val_true;
  else if (!strcmp(name, "false"))
    *out = val_false;
  else if (!strcmp(name, "null"))
    *out = val_dynamic_null;
  else if (!strcmp(name, "unknown"))
    *out = val_dynamic_unknown;
  else if (!strcmp(name, "unknown_string"))
    *out = val_unknown(&ty_string);
  else if (!strcmp(name, "unknown_number"))
    *out = val_unknown(&ty_number);
  else if (!strcmp(name, "null_string"))
    *out = val_null(&ty_string);
  else {
    p->err = arena_printf(&A, "unknown name %s", name);
    return false;
  }
  return true;
}

/* ---- Rendering -------------------------------------------------------------- */

static void render_str(Buf *b, const char *s, size_t n)
{
  buf_putc(b, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch == '"' || ch == '\\') {
      buf_putc(b, '\\');
      buf_putc(b, (char)ch);
    } else if (ch == '\n') {
      buf_puts(b, "\\n");
    } else if (ch == '\t') {
      buf_puts(b, "\\t");
    } else if (ch == '\r') {
      buf_puts(b, "\\r");
    } else if (ch < 0x20) {
      buf_printf(b, "\\u%04x", ch);
    } else {
      buf_putc(b, (char)ch);
    }
  }
  buf_putc(b, '"');
}

static void render(Buf *b, Value v)
{
  if (val_is_sensitive(v)) {
    buf_puts(b, "sensitive(");
    render(b, val_unmark(v));
    buf_putc(b, ')');
    return;
  }
  if (val_is_unknown(v)) {
    buf_puts(b, "(unknown)");
    return;
  }
  if (val_is_null(v)) {
    buf_puts(b, "null");
    return;
  }
  switch (v.type->kind) {
  case TY_STRING:
    render_str(b, v.u.s, v.len);
    return;
  case TY_NUMBER:
    val_num_format(b, v);
    return;
  case TY_BOOL:
    buf_puts(b, v.u.b ? "true" : "false");
    return;
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE:
    buf_puts(b, v.type->kind == TY_LIST ? "tolist([" :
                v.type->kind == TY_SET ? "toset([" : "[");
    for (uint32_t i = 0; i < v.len; i++) {
      if (i)
        buf_puts(b, ", ");
      render(b, v.u.elems[i]);
    }
    buf_puts(b, v.type->kind == TY_TUPLE ? "]" : "])");
    return;
  case TY_MAP:
    buf_puts(b, "tomap({");
    for (uint32_t i = 0; i < v.len; i++) {
      if (i)
        buf_puts(b, ", ");
      render_str(b, v.u.entries[i].key, v.u.entries[i].keylen);
      buf_puts(b, " = ");
      render(b, v.u.entries[i].val);
    }
    buf_puts(b, "})");
    return;
  case TY_OBJECT:
    buf_putc(b, '{');
    for (uint32_t i = 0; i < v.len; i++) {
      if (i)
        buf_puts(b, ", ");
      render_str(b, v.type->names[i], strlen(v.type->names[i]));
      buf_puts(b, " = ");
      render(b, v.u.elems[i]);
    }
    buf_putc(b, '}');
    return;
  case TY_DYNAMIC:
    buf_puts(b, "(dynamic)");
    return;
  }
}

/* ---- Case files --------------------------------------------------------------- */

static int cases_run, cases_failed;
static bool seen[512];

static void mark_seen(const char *expr)
{
  uint32_t n;
  const FnDef *t = fn_table_get(&n);
  for (uint32_t i = 0; i < n && i < 512; i++) {
    size_t l = strlen(t[i].name);
    const char *q = expr;
    while ((q = strstr(q, t[i].name))) {
      bool left = q == expr || !ident_char(q[-1]);
      if (left && q[l] == '(')
        seen[i] = true;
      q += l;
    }
  }
}

/* Plain numbers compare with a relative tolerance of 1e-12: musl's
** long-double strtod and printf lose precision under valgrind, whose
** x87 emulation has only 64-bit doubles. */
static bool near(const char *got, const char *want)
{
  char *e1, *e2;
  double g = strtod(got, &e1), w = strtod(want, &e2);
  if (*e1 || *e2 || e1 == got || e2 == want)
    return false;
  double d = g - w;
  if (d < 0)
    d = -d;
  double m = w < 0 ? -w : w;
  return d <= 1e-12 * (m > 1 ? m : 1);
}

static void run_case(const char *file, int line, const char *expr,
                     const char *want)
{
  FnCall fc;
  fn_call_init(&fc, &A);
  fc.base_dir = "tests/funcs/data";
  fc.has_plan_time = true;
  fc.plan_time_sec = 1700000000;
  fc.console = strstr(expr, "type(") != NULL;
  P p = {expr, 0, strlen(expr), NULL, &fc};
  Value v;
  Buf got;
  buf_init(&got, &A);
  bool ok = parse_expr(&p, &v);
  if (ok) {
    ws(&p);
    if (p.i != p.n) {
      ok = false;
      p.err = "trailing input";
    }
  }
  if (ok)
    render(&got, v);
  else
    buf_puts(&got, p.err ? p.err : "error");
  bool pass;
  if (!strncmp(want, "error: ", 7))
    pass = !ok && !strncmp(got.p, "error: ", 7) && strstr(got.p, want + 7);
  else
    pass = ok && (!strcmp(got.p, want) || near(got.p, want));
  cases_run++;
  mark_seen(expr);
  if (!pass) {
    cases_failed++;
    fprintf(stderr, "%s:%d: %s\n  got:  %s\n  want: %s\n", file, line, expr,
            got.p, want);
  }
}

static void run_file(const char *path)
{
  FILE *f = fopen(path, "r");
  T_CHECK(f != NULL);
  if (!f)
    return;
  char line[8192];
  int ln = 0;
  while (fgets(line, sizeof line, f)) {
    ln++;
    size_t l = strlen(line);
    while (l && (line[l - 1] == '\n' || line[l - 1] == '\r'))
      line[--l] = 0;
    if (!l || line[0] == '#')
      continue;
    char *tab = strchr(line, '\t');
    if (!tab) {
      fprintf(stderr, "%s:%d: no TAB\n", path, ln);
      cases_failed++;
      continue;
    }
    *tab = 0;
    char *want = tab + 1;
    while (*want == '\t')
      want++;
    ArenaMark m = arena_mark(&A);
    run_case(path, ln, line, want);
    arena_rewind(&A, m);
  }
  fclose(f);
}

static int name_cmp(const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void test_case_files(void)
{
  DIR *d = opendir("tests/funcs");
  T_CHECK(d != NULL);
  if (!d)
    return;
  const char *names[64];
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 64) {
    size_t l = strlen(e->d_name);
    if (l > 4 && !strcmp(e->d_name + l - 4, ".txt"))
      names[n++] = arena_printf(&A, "tests/funcs/%s", e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof names[0], name_cmp);
  for (int i = 0; i < n; i++)
    run_file(names[i]);
  printf("funcs: %d cases, %d failed\n", cases_run, cases_failed);
  T_CHECK(cases_run >= 400);
  T_EQ_INT(cases_failed, 0);
  /* Every function in the table (except the special forms) is covered. */
  uint32_t nt;
  const FnDef *t = fn_table_get(&nt);
  for (uint32_t i = 0; i < nt; i++) {
    if ((t[i].flags & FN_SPECIAL) || seen[i])
      continue;
    fprintf(stderr, "no case calls %s\n", t[i].name);
    T_CHECK(seen[i]);
  }
}

/* ---- Direct tests ---------------------------------------------------------------- */

static void test_table_sorted(void)
{
  uint32_t n;
  const FnDef *t = fn_table_get(&n);
  T_CHECK(n > 100);
  for (uint32_t i = 1; i < n; i++)
    T_CHECK(strcmp(t[i - 1].name, t[i].name) < 0);
  for (uint32_t i = 0; i < n; i++)
    T_CHECK(fn_lookup(t[i].name) == &t[i]);
  T_CHECK(fn_lookup("core::upper") == fn_lookup("upper"));
  T_CHECK(fn_lookup("nosuch") == NULL);
  T_CHECK(fn_lookup("try")->flags & FN_SPECIAL);
  T_CHECK(fn_lookup("can")->flags & FN_SPECIAL);
  T_CHECK(fn_lookup("uuid")->flags & FN_IMPURE);
}

static void test_machinery(void)
{
  FnCall fc;
  fn_call_init(&fc, &A);
  Value out;
  Value args[3] = {val_cstr(&A, "a"), val_cstr(&A, "b"), val_cstr(&A, "c")};
  /* Arity. */
  T_CHECK(!fn_call(fn_lookup("upper"), &fc, args, 0, &out));
  T_EQ_STR(fc.err.summary, "Not enough function arguments");
  T_EQ_STR(fc.err.detail, "Function \"upper\" expects 1 argument(s). Missing "
                          "value for \"str\".");
  T_CHECK(!fn_call(fn_lookup("upper"), &fc, args, 2, &out));
  T_EQ_STR(fc.err.summary, "Too many function arguments");
  T_EQ_STR(fc.err.detail, "Function \"upper\" expects only 1 argument(s).");
  T_EQ_INT(fc.err.arg, 1);
  T_CHECK(!fn_call(fn_lookup("join"), &fc, args, 0, &out));
  T_EQ_STR(fc.err.detail, "Function \"join\" expects at least 1 argument(s). "
                          "Missing value for \"separator\".");
  /* Conversion and nulls. */
  Value tup = val_tuple(&A, NULL, 0);
  T_CHECK(!fn_call(fn_lookup("upper"), &fc, &tup, 1, &out));
  T_EQ_STR(fc.err.summary, "Invalid function argument");
  T_EQ_STR(fc.err.detail, "Invalid value for \"str\" parameter: string "
                          "required.");
  T_EQ_INT(fc.err.arg, 0);
  Value nul = val_null(&ty_string);
  T_CHECK(!fn_call(fn_lookup("upper"), &fc, &nul, 1, &out));
  T_EQ_STR(fc.err.detail, "Invalid value for \"str\" parameter: argument "
                          "must not be null.");
  /* Unknown short-circuit keeps the return type. */
  Value unk = val_unknown(&ty_string);
  T_CHECK(fn_call(fn_lookup("upper"), &fc, &unk, 1, &out));
  T_CHECK(val_is_unknown(out) && out.type->kind == TY_STRING);
  /* Sensitive arguments make sensitive results. */
  Value s = val_sensitive(val_cstr(&A, "x"));
  T_CHECK(fn_call(fn_lookup("upper"), &fc, &s, 1, &out));
  T_CHECK(val_is_sensitive(out));
  T_EQ_STR(val_unmark(out).u.s, "X");
  /* Impure functions are unknown in validate mode. */
  fc.pure_only = true;
  T_CHECK(fn_call(fn_lookup("uuid"), &fc, NULL, 0, &out));
  T_CHECK(val_is_unknown(out));
  fc.pure_only = false;
  /* Errors from implementations. */
  T_CHECK(!fn_call(fn_lookup("list"), &fc, NULL, 0, &out));
  T_EQ_STR(fc.err.summary, "Error in function call");
  T_CHECK(strstr(fc.err.detail, "Call to function \"list\" failed: the "
                                "\"list\" function was deprecated") != NULL);
  /* Special forms are refused. */
  T_CHECK(!fn_call(fn_lookup("try"), &fc, args, 1, &out));
  /* Template functions without the evaluator's hook. */
  Value targs[2] = {val_cstr(&A, "x"), val_dynamic_null};
  T_CHECK(!fn_call(fn_lookup("templatestring"), &fc, targs, 2, &out));
}

/* Ephemeral marks: carried through calls like sensitive ones, nulled by
** ephemeralasnull at any depth (other values and marks kept). */
static void test_ephemeral_marks(void)
{
  FnCall fc;
  fn_call_init(&fc, &A);
  Value out;
  Value e = val_ephemeral(val_cstr(&A, "x"));
  T_CHECK(fn_call(fn_lookup("upper"), &fc, &e, 1, &out));
  T_CHECK((out.flags & VF_EPHEMERAL) && !val_is_sensitive(out));
  T_EQ_STR(val_unmark(out).u.s, "X");
  /* nonsensitive removes only the sensitive mark */
  Value se = val_sensitive(e);
  T_CHECK(fn_call(fn_lookup("nonsensitive"), &fc, &se, 1, &out));
  T_CHECK(!val_is_sensitive(out) && (out.flags & VF_EPHEMERAL));
  T_CHECK(fn_call(fn_lookup("ephemeralasnull"), &fc, &e, 1, &out));
  T_CHECK(val_is_null(out) && out.type->kind == TY_STRING &&
          !(out.flags & VF_MARKS));
  const char *names[2] = {"a", "b"};
  Value vals[2] = {val_sensitive(val_cstr(&A, "keep")),
                   val_ephemeral(val_int(7))};
  Value obj = val_object(&A, 2, names, vals);
  T_CHECK(val_has_ephemeral(obj));
  T_CHECK(fn_call(fn_lookup("ephemeralasnull"), &fc, &obj, 1, &out));
  T_CHECK(!val_has_ephemeral(out));
  T_CHECK(val_is_sensitive(val_attr(out, "a", NULL)));
  T_EQ_STR(val_unmark(val_attr(out, "a", NULL)).u.s, "keep");
  T_CHECK(val_is_null(val_attr(out, "b", NULL)));
  /* an unknown ephemeral value is null too, and plain values pass */
  Value ue = val_ephemeral(val_unknown(&ty_number));
  T_CHECK(fn_call(fn_lookup("ephemeralasnull"), &fc, &ue, 1, &out));
  T_CHECK(val_is_null(out) && val_is_known(out));
  Value plain = val_int(3);
  T_CHECK(fn_call(fn_lookup("ephemeralasnull"), &fc, &plain, 1, &out));
  T_CHECK(val_is_known(out) && !val_is_null(out) && out.u.i == 3);
}

static void test_random(void)
{
  FnCall fc;
  fn_call_init(&fc, &A);
  Value a, b;
  T_CHECK(fn_call(fn_lookup("uuid"), &fc, NULL, 0, &a));
  T_CHECK(fn_call(fn_lookup("uuid"), &fc, NULL, 0, &b));
  T_EQ_INT(a.len, 36);
  T_CHECK(strcmp(a.u.s, b.u.s) != 0);
  T_CHECK(a.u.s[14] == '4');
  T_CHECK(strchr("89ab", a.u.s[19]) != NULL);
  Value ts;
  T_CHECK(fn_call(fn_lookup("timestamp"), &fc, NULL, 0, &ts));
  T_EQ_INT(ts.len, 20);
  T_CHECK(ts.u.s[10] == 'T' && ts.u.s[19] == 'Z');
  Value args[2] = {val_cstr(&A, "secret"), val_int(4)};
  Value h;
  T_CHECK(fn_call(fn_lookup("bcrypt"), &fc, args, 2, &h));
  T_EQ_INT(h.len, 60);
  T_CHECK(strncmp(h.u.s, "$2a$04$", 7) == 0);
}

static void test_bcrypt_vector(void)
{
  /* Known hash from OpenBSD's bcrypt test vectors. */
  static const uint8_t salt[16] = {0x10, 0x41, 0x04, 0x10, 0x41, 0x04,
                                   0x10, 0x41, 0x04, 0x10, 0x41, 0x04,
                                   0x10, 0x41, 0x04, 0x10};
  Buf b;
  buf_init(&b, &A);
  fn_bcrypt_salted(&b, &A, "U*U", salt, 5);
  T_EQ_STR(buf_str(&b),
           "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW");
}

int main(void)
{
  arena_init(&A, 0);
  T_RUN(test_table_sorted);
  T_RUN(test_machinery);
  T_RUN(test_random);
  T_RUN(test_ephemeral_marks);
  T_RUN(test_bcrypt_vector);
  T_RUN(test_case_files);
  arena_release(&A);
  return t_done("funcs");
}
