/*
** test_hcl: the HCL native syntax, the JSON syntax and schema decoding.
** Table-driven: expressions against an S-expression dump of the tree,
** error inputs against HCL's summary and subject position (the expected
** values were checked against hashicorp/hcl's own parser), references,
** JSON bodies, robustness (depth, size, bad bytes) and the files under
** tests/hcl/.
*/
#include "lang/hcl.h"
#include "t.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Arena A;

static const char *dump_expr(const HclExpr *e)
{
  Buf b;
  buf_init(&b, &A);
  hcl_dump_expr(&b, e);
  return buf_str(&b);
}

static const char *dump_body(const HclBody *body)
{
  Buf b;
  buf_init(&b, &A);
  hcl_dump_body(&b, body);
  return buf_str(&b);
}

static HclExpr *pexpr(const char *s, Diags *d)
{
  return hcl_parse_expr(&A, "t.tf", s, strlen(s), d);
}

static HclFile *pfile(const char *s, Diags *d)
{
  return hcl_parse_file(&A, "t.tf", s, strlen(s), d);
}

static HclFile *pjson(const char *s, Diags *d)
{
  return hcl_parse_json_file(&A, "t.tf.json", s, strlen(s), d);
}

static char *read_file(const char *path, size_t *n)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  Buf b;
  buf_init(&b, &A);
  char tmp[4096];
  size_t k;
  while ((k = fread(tmp, 1, sizeof tmp, f)) > 0)
    buf_put(&b, tmp, k);
  fclose(f);
  *n = b.len;
  return b.p ? b.p : (char *)"";
}

/* ---- Expressions ---------------------------------------------------------- */

static const struct {
  const char *src, *dump;
} expr_cases[] = {
    {"1",
     "1"},
    {"1.5",
     "1.5"},
    {"1e3",
     "1000"},
    /* exactly representable: valgrind runs long double at 64 bits */
    {"0.25",
     "0.25"},
    {"true",
     "true"},
    {"false",
     "false"},
    {"null",
     "null"},
    {"\"a\"",
     "(tmpl \"a\")"},
    {"\"\"",
     "(tmpl \"\")"},
    {"\"a\\nb\\t\\\"c\\\"\\\\\"",
     "(tmpl \"a\\nb\\t\\\"c\\\"\\\\\")"},
    {"\"\\u00e9\\U0001F600\"",
     "(tmpl \"\xc3""\xa9""\xf0""\x9f""\x98""\x80""\")"},
    {"\"$${x} %%{y}\"",
     "(tmpl \"${x} %{y}\")"},
    {"\"a$b%c\"",
     "(tmpl \"a$b%c\")"},
    {"\"${x}\"",
     "(wrap (trav x))"},
    {"\"a${x}\"",
     "(tmpl \"a\" (trav x))"},
    {"\"${x}${y}\"",
     "(tmpl (trav x) (trav y))"},
    {"\"${x}a\"",
     "(tmpl (trav x) \"a\")"},
    {"\"%{if c}y%{endif}\"",
     "(tmpl (? (trav c) (tmpl \"y\") (tmpl \"\")))"},
    {"\"%{if c}y%{else}n%{endif}\"",
     "(tmpl (? (trav c) (tmpl \"y\") (tmpl \"n\")))"},
    {"\"%{for v in xs}${v},%{endfor}\"",
     "(tmpl (join (for[ _ v (trav xs) (tmpl (trav v) \",\"))))"},
    {"\"%{for k, v in m}${k}=${v}%{endfor}\"",
     "(tmpl (join (for[ k v (trav m) (tmpl (trav k) \"=\" (trav v)))))"},
    {"\"a ${~ x ~} b\"",
     "(tmpl \"a\" (trav x) \"b\")"},
    {"\"a %{~ if c ~} b %{~ endif ~} c\"",
     "(tmpl \"a\" (? (trav c) (tmpl \"b\") (tmpl \"\")) \"c\")"},
    {"\"${\"a\" ~}${\" b\"}\"",
     "(tmpl (tmpl \"a\") (tmpl \" b\"))"},
    {"a",
     "(trav a)"},
    {"a.b",
     "(trav a .b)"},
    {"a.b.c",
     "(trav a .b .c)"},
    {"a[0]",
     "(trav a [0])"},
    {"a[\"k\"]",
     "(trav a [\"k\"])"},
    {"a[b]",
     "(index (trav a) (trav b))"},
    {"a[b].c",
     "(rel (index (trav a) (trav b)) .c)"},
    {"a[0][1]",
     "(trav a [0] [1])"},
    {"a.0",
     "(trav a .0)"},
    {"a.0.b",
     "(trav a .0 .b)"},
    {"a.*.b",
     "(splat. (trav a) (rel @ .b))"},
    {"a.*.b.c",
     "(splat. (trav a) (rel @ .b .c))"},
    {"a.*.b[0]",
     "(rel (splat. (trav a) (rel @ .b)) [0])"},
    {"a[*].b[0]",
     "(splat (trav a) (rel @ .b [0]))"},
    {"a[*]",
     "(splat (trav a) @)"},
    {"a.*",
     "(splat. (trav a) @)"},
    {"a[*].b.*.c",
     "(splat (trav a) (splat. (rel @ .b) (rel @ .c)))"},
    {"f()",
     "(call f)"},
    {"f(1)",
     "(call f 1)"},
    {"f(1, 2,)",
     "(call f 1 2)"},
    {"f(a...)",
     "(call f (trav a) ...)"},
    {"f(\n  1,\n  2\n)",
     "(call f 1 2)"},
    {"provider::aws::arn_parse(x)",
     "(call provider::aws::arn_parse (trav x))"},
    {"a::b()",
     "(call a::b)"},
    {"f(x)[0]",
     "(rel (call f (trav x)) [0])"},
    {"f(x).y",
     "(rel (call f (trav x)) .y)"},
    {"(a)",
     "(paren (trav a))"},
    {"(a).b",
     "(rel (paren (trav a)) .b)"},
    {"((a))",
     "(paren (paren (trav a)))"},
    {"-1",
     "(neg 1)"},
    {"-a.b",
     "(neg (trav a .b))"},
    {"!a",
     "(! (trav a))"},
    {"!!a",
     "(! (! (trav a)))"},
    {"- -1",
     "(neg (neg 1))"},
    {"1 + 2",
     "(+ 1 2)"},
    {"1 + 2 * 3",
     "(+ 1 (* 2 3))"},
    {"(1 + 2) * 3",
     "(* (paren (+ 1 2)) 3)"},
    {"1 - 2 - 3",
     "(- (- 1 2) 3)"},
    {"1 / 2 % 3",
     "(% (/ 1 2) 3)"},
    {"a == b",
     "(== (trav a) (trav b))"},
    {"a != b",
     "(!= (trav a) (trav b))"},
    {"a < b",
     "(< (trav a) (trav b))"},
    {"a <= b",
     "(<= (trav a) (trav b))"},
    {"a > b",
     "(> (trav a) (trav b))"},
    {"a >= b",
     "(>= (trav a) (trav b))"},
    {"a && b || c",
     "(|| (&& (trav a) (trav b)) (trav c))"},
    {"a || b && c",
     "(|| (trav a) (&& (trav b) (trav c)))"},
    {"!a && b",
     "(&& (! (trav a)) (trav b))"},
    {"-1 + 2",
     "(+ (neg 1) 2)"},
    {"a ? b : c",
     "(? (trav a) (trav b) (trav c))"},
    {"a ? b : c ? d : e",
     "(? (trav a) (trav b) (? (trav c) (trav d) (trav e)))"},
    {"a ? b ? c : d : e",
     "(? (trav a) (? (trav b) (trav c) (trav d)) (trav e))"},
    {"a || b ? c : d",
     "(? (|| (trav a) (trav b)) (trav c) (trav d))"},
    {"1 + 2 == 3 && true",
     "(&& (== (+ 1 2) 3) true)"},
    {"[]",
     "(tuple)"},
    {"[1]",
     "(tuple 1)"},
    {"[1, 2]",
     "(tuple 1 2)"},
    {"[1, 2,]",
     "(tuple 1 2)"},
    {"[\n  1,\n  2\n]",
     "(tuple 1 2)"},
    {"{}",
     "(object)"},
    {"{a = 1}",
     "(object (a 1))"},
    {"{a = 1, b = 2}",
     "(object (a 1) (b 2))"},
    {"{a: 1}",
     "(object (a 1))"},
    {"{\"a\" = 1}",
     "(object ((tmpl \"a\") 1))"},
    {"{(a) = 1}",
     "(object ((paren (trav a)) 1))"},
    {"{a.b = 1}",
     "(object ((trav a .b) 1))"},
    {"{true = 1, null = 2}",
     "(object (true 1) (null 2))"},
    {"{\n  a = 1\n  b = 2\n}",
     "(object (a 1) (b 2))"},
    {"{\"${k}\" = v}",
     "(object ((wrap (trav k)) (trav v)))"},
    {"[for x in xs : x]",
     "(for[ _ x (trav xs) (trav x))"},
    {"[for i, x in xs : x if i > 0]",
     "(for[ i x (trav xs) (trav x) if (> (trav i) 0))"},
    {"{for k, v in m : k => v}",
     "(for{ k v (trav m) (trav k) (trav v))"},
    {"{for k, v in m : v => k...}",
     "(for{ k v (trav m) (trav v) (trav k) ...)"},
    {"{for x in xs : x => x if x != null}",
     "(for{ _ x (trav xs) (trav x) (trav x) if (!= (trav x) null))"},
    {"[for x in [for y in ys : y] : x]",
     "(for[ _ x (for[ _ y (trav ys) (trav y)) (trav x))"},
    {"x.y[*].z",
     "(splat (trav x .y) (rel @ .z))"},
    {"foo.0.bar.1",
     "(trav foo .0 .bar .1)"},
    {"var.list[0].name",
     "(trav var .list [0] .name)"},
    {"aws_instance.web[count.index].id",
     "(rel (index (trav aws_instance .web) (trav count .index)) .id)"},
    {"local.m[\"key\"].attr",
     "(trav local .m [\"key\"] .attr)"},
    {"a[-1]",
     "(index (trav a) (neg 1))"},
    {"a[1+1]",
     "(index (trav a) (+ 1 1))"},
    {"a[\"${b}\"]",
     "(index (trav a) (wrap (trav b)))"},
    {"a[null]",
     "(trav a [null])"},
    {"<<EOT\nhello\nEOT\n",
     "(tmpl \"hello\\n\")"},
    {"<<-EOT\n    a\n      b\n    EOT\n",
     "(tmpl \"a\\n  b\\n\")"},
    {"<<EOT\nx ${y} z\nEOT\n",
     "(tmpl \"x \" (trav y) \" z\\n\")"},
    {"<<EOT\n  EOT\n",
     "(tmpl \"\")"},
};

static void test_expr_table(void)
{
  for (size_t i = 0; i < sizeof expr_cases / sizeof expr_cases[0]; i++) {
    Diags d;
    diag_init(&d, &A);
    HclExpr *e = pexpr(expr_cases[i].src, &d);
    const char *got = dump_expr(e);
    if (strcmp(got, expr_cases[i].dump) != 0 || d.errors)
      fprintf(stderr, "case %zu: %s\n  got  %s (%d errors: %s)\n  want %s\n",
              i, expr_cases[i].src, got, d.errors,
              d.head ? d.head->summary : "", expr_cases[i].dump);
    T_EQ_STR(got, expr_cases[i].dump);
    T_EQ_INT(d.errors, 0);
  }
}

/* ---- Errors ----------------------------------------------------------------- */

static const struct {
  char mode;          /* f: file, e: expression, t: template, j: JSON */
  const char *src;
  const char *summary;   /* first diagnostic, NULL for none */
  unsigned line, col;    /* its subject start */
  int count;             /* number of diagnostics */
} err_cases[] = {
    {'f', "a = 1, b = 2\n",
     "Unexpected comma after argument", 1, 6, 1},
    {'f', "a = \"a value\", b = \"b value\"\n",
     "Unexpected comma after argument", 1, 14, 1},
    {'f', "a {\n",
     "Unclosed configuration block", 1, 3, 1},
    {'f', "a { b = 1, c = 2 }\n",
     "Invalid single-argument block definition", 1, 10, 1},
    {'f', "a { b = 1\n}\n",
     "Invalid single-argument block definition", 1, 10, 1},
    {'f', "a { d {} }\n",
     "Argument definition required", 1, 5, 1},
    {'f', "a {\nb = 1 }\n",
     "Missing newline after argument", 2, 7, 1},
    {'f', "a = 1\na = 2\n",
     "Attribute redefined", 2, 1, 1},
    {'f', "\"a\" = 1\n",
     "Invalid argument name", 1, 1, 1},
    {'f', "a b = 1\n",
     "Invalid block definition", 1, 5, 1},
    {'f', "a\n",
     "Argument or block definition required", 1, 1, 1},
    {'f', "a \"b\"\n{\n}\n",
     "Invalid block definition", 1, 6, 1},
    {'f', "a = \n",
     "Invalid expression", 1, 5, 1},
    {'f', "a = 1 2\n",
     "Missing newline after argument", 1, 7, 1},
    {'f', "a = \"abc\nb = 1\n",
     "Invalid multi-line string", 1, 9, 3},
    {'f', "a = \"abc",
     "Unterminated template string", 1, 9, 1},
    {'f', "a = <<EOT\nabc\n",
     "Unterminated template string", 3, 1, 1},
    {'f', "a = <<EOT\nabc\nEOT",
     "Unterminated template string", 3, 4, 1},
    {'f', "a = [1, 2\n",
     "Unterminated tuple constructor expression", 1, 5, 1},
    {'f', "a = [1 2]\n",
     "Missing item separator", 1, 8, 1},
    {'f', "a = {b = 1 c = 2}\n",
     "Missing attribute separator", 1, 12, 1},
    {'f', "a = {b 1}\n",
     "Missing key/value separator", 1, 8, 1},
    {'f', "a = {b\n}\n",
     "Missing attribute value", 1, 7, 1},
    {'f', "a = {\n",
     "Missing expression", 2, 1, 1},
    {'f', "a = f(1 2)\n",
     "Missing argument separator", 1, 9, 1},
    {'f', "a = f(1,\n",
     "Missing expression", 2, 1, 1},
    {'f', "a = f(x..., y)\n",
     "Missing closing parenthesis", 1, 8, 1},
    {'f', "a = (1 + 2\n",
     "Unbalanced parentheses", 2, 1, 1},
    {'f', "a = x ? y\n",
     "Missing false expression in conditional", 1, 10, 1},
    {'f', "a = \"${x\"\n",
     "Invalid multi-line string", 1, 10, 2},
    {'f', "a = \"${x:y}\"\n",
     "Extra characters after interpolation expression", 1, 9, 1},
    {'f', "a = \"${x y}\"\n",
     "Extra characters after interpolation expression", 1, 10, 1},
    {'f', "a = \"%{if x}y\"\n",
     "Unexpected end of template", 1, 14, 1},
    {'f', "a = \"%{for x in y}z\"\n",
     "Unexpected end of template", 1, 20, 1},
    {'f', "a = \"%{endif}\"\n",
     "Unexpected endif directive", 1, 6, 1},
    {'f', "a = \"%{foo}\"\n",
     "Invalid template control keyword", 1, 8, 1},
    {'f', "a = \"%{iff x}y%{endif}\"\n",
     "Invalid template control keyword", 1, 8, 2},
    {'f', "a = \"%{if x}y%{endfor}\"\n",
     "Unexpected endfor directive", 1, 14, 1},
    {'f', "a = \"%{if x}a%{else}b%{else}c%{endif}\"\n",
     "Unexpected else directive", 1, 22, 2},
    {'f', "a = \"%{for x in y}a%{else}b%{endfor}\"\n",
     "Unexpected else directive", 1, 20, 2},
    {'f', "a = \"%{for in y}%{endfor}\"\n",
     "Invalid 'for' directive", 1, 15, 2},
    {'f', "a = \"%{if x y}%{endif}\"\n",
     "Extra characters in if marker", 1, 13, 1},
    {'f', "a = \"\\q\"\n",
     "Invalid escape sequence", 1, 6, 1},
    {'f', "a = \"\\u12\"\n",
     "Invalid escape sequence", 1, 6, 1},
    {'f', "a = \"\\ud800\"\n",
     "Invalid escape sequence", 1, 6, 1},
    {'f', "a = x.\n",
     "Invalid attribute name", 1, 7, 1},
    {'f', "a = x.*.*\n",
     "Nested splat expression not allowed", 1, 9, 1},
    {'f', "a = x[*\n",
     "Missing close bracket on splat index", 2, 1, 1},
    {'f', "a = x[1\n",
     "Missing close bracket on index", 2, 1, 1},
    {'f', "a = [for x in y: x, z]\n",
     "Invalid 'for' expression", 1, 19, 1},
    {'f', "a = [for k, v in y: k => v]\n",
     "Invalid 'for' expression", 1, 21, 1},
    {'f', "a = {for v in y: v}\n",
     "Invalid 'for' expression", 1, 18, 1},
    {'f', "a = [for x y]\n",
     "Invalid 'for' expression", 1, 12, 1},
    {'f', "a = [for x in y: x...]\n",
     "Invalid 'for' expression", 1, 19, 1},
    {'f', "a = [for , in y: x]\n",
     "Invalid 'for' expression", 1, 10, 1},
    {'f', "a = 1 & 2\n",
     "Unsupported operator", 1, 7, 2},
    {'f', "a = 1 | 2\n",
     "Unsupported operator", 1, 7, 2},
    {'f', "a = 'x'\n",
     "Invalid character", 1, 5, 2},
    {'f', "a = `x`\n",
     "Invalid character", 1, 5, 2},
    {'f', "a = 1;\n",
     "Invalid character", 1, 6, 2},
    {'f', "a = \xe2""\x80""\x9c""x\xe2""\x80""\x9d""\n",
     "Invalid character", 1, 5, 3},
    {'f', "a = 1 ~ 2\n",
     "Unsupported operator", 1, 7, 2},
    {'f', "a = 1 ^ 2\n",
     "Unsupported operator", 1, 7, 2},
    {'f', "a = $\n",
     "Invalid character", 1, 5, 2},
    {'f', "a = 1.2.3\n",
     "Invalid number literal", 1, 5, 1},
    {'f', "a = \"${\"a\" ~}${\" b\"}\"\n", NULL, 0, 0, 0},
    {'f', "/* unterminated\na = 1\n",
     "Argument or block definition required", 1, 1, 1},
    {'f', "block \"a\" \"${b}\" {}\n",
     "Invalid string literal", 1, 12, 1},
    {'f', "a = 1 # comment\nb = 2 // c\nc = 3 /* x */\n", NULL, 0, 0, 0},
    {'f', "}\n",
     "Argument or block definition required", 1, 1, 1},
    {'f', "a {\n  b = 1\n",
     "Unclosed configuration block", 1, 3, 1},
    {'f', "a { b = 1 } c\n",
     "Missing newline after block definition", 1, 13, 1},
    {'f', "a = x.0.0\n",
     "Invalid legacy index syntax", 1, 7, 1},
    {'f', "a = x.*.0.0\n",
     "Invalid legacy index syntax", 1, 7, 1},
    {'f', "a = !\n",
     "Invalid expression", 1, 6, 1},
    {'e', "1 + ",
     "Missing expression", 1, 5, 1},
    {'e', "1 2",
     "Extra characters after expression", 1, 3, 1},
    {'e', "",
     "Missing expression", 1, 1, 1},
    {'e', "{a = 1, b = 2,}", NULL, 0, 0, 0},
    {'e', "[for x in y : x if]",
     "Invalid expression", 1, 19, 1},
    {'e', "f(a...,)",
     "Missing closing parenthesis", 1, 4, 1},
    {'t', "hello ${name",
     "Unclosed template interpolation sequence", 1, 1, 1},
    {'t', "a %{ if x }b",
     "Unexpected end of template", 1, 13, 1},
    {'t', "${a}}", NULL, 0, 0, 0},
    {'j', "{\"a\": 1,}",
     "Trailing comma in object", 1, 8, 2},
    {'j', "[1, 2,]",
     "Trailing comma in array", 1, 6, 2},
    {'j', "{\"a\" 1}",
     "Missing property value colon", 1, 6, 2},
    {'j', "{\"a\" = 1}",
     "Missing property value colon", 1, 6, 2},
    {'j', "{a: 1}",
     "Invalid JSON keyword", 1, 2, 3},
    {'j', "{\"a\": 1",
     "Unclosed object", 1, 1, 2},
    {'j', "{\"a\": 1]",
     "Mismatched braces", 1, 9, 2},
    {'j', "[1 2]",
     "Missing attribute seperator comma", 1, 6, 2},
    {'j', "[1: 2]",
     "Invalid array value", 1, 7, 2},
    {'j', "{\"a\": tru}",
     "Invalid JSON keyword", 1, 7, 1},
    {'j', "{\"a\": NaN}",
     "Invalid JSON keyword", 1, 7, 1},
    {'j', "{\"a\": 01}",
     "Invalid JSON number", 1, 7, 1},
    {'j', "{\"a\": \"\\x\"}",
     "Invalid JSON string", 1, 10, 1},
    {'j', "\"str\"",
     "Root value must be object", 1, 1, 1},
    {'j', "{} {}",
     "Extraneous data after value", 1, 4, 1},
    {'j', "",
     "Missing value", 1, 1, 2},
    {'j', "{\"a\": }",
     "Missing JSON value", 1, 7, 1},
    {'j', "[}",
     "Missing JSON value", 1, 2, 3},
    {'f', "a = \"x\xff""\"\n",
     "Invalid character encoding", 1, 7, 2},
    {'f', "a = x\x00""\n",
     "Invalid character", 1, 6, 2},
    {'f', "\xef""\xbb""\xbf""a = 1\nb = \n",
     "Invalid expression", 2, 5, 1},
    {'f', "a = 1\r\nb = 2 3\r\n",
     "Missing newline after argument", 2, 7, 1},
    {'f', "a = <<EOT\n  x\n  EOT\nb = 1 2\n",
     "Missing newline after argument", 4, 7, 1},
    {'f', "a = <<-EOT\n\tx\n\xe2""\x80""\x83""y\nEOT\nb = 1 2\n",
     "Missing newline after argument", 5, 7, 1},
    {'f', "x = \"\xc3""\xa9""\xc3""\xa9""\" 1\n",
     "Missing newline after argument", 1, 10, 1},
    {'f', "x = \"e\xcc""\x81""e\xcc""\x81""\" 1\n",
     "Missing newline after argument", 1, 10, 1},
};

static void test_error_table(void)
{
  for (size_t i = 0; i < sizeof err_cases / sizeof err_cases[0]; i++) {
    Diags d;
    diag_init(&d, &A);
    const char *s = err_cases[i].src;
    size_t n = strlen(s);
    /* one case carries a NUL byte */
    if (strcmp(s, "a = x") == 0)
      n = 7;
    switch (err_cases[i].mode) {
    case 'e': hcl_parse_expr(&A, "t", s, n, &d); break;
    case 't': hcl_parse_template(&A, "t", s, n, &d); break;
    case 'j': hcl_parse_json_file(&A, "t", s, n, &d); break;
    default: hcl_parse_file(&A, "t", s, n, &d); break;
    }
    int count = 0;
    for (Diag *g = d.head; g; g = g->next)
      count++;
    if (!err_cases[i].summary) {
      T_EQ_INT(count, 0);
      continue;
    }
    T_CHECK(d.head != NULL);
    if (!d.head)
      continue;
    if (strcmp(d.head->summary, err_cases[i].summary) != 0 ||
        d.head->subject.start.line != err_cases[i].line ||
        d.head->subject.start.col != err_cases[i].col)
      fprintf(stderr, "case %zu: %s\n  got %s at %u:%u\n", i, s,
              d.head->summary, d.head->subject.start.line,
              d.head->subject.start.col);
    T_EQ_STR(d.head->summary, err_cases[i].summary);
    T_EQ_INT(d.head->subject.start.line, err_cases[i].line);
    T_EQ_INT(d.head->subject.start.col, err_cases[i].col);
    T_EQ_INT(count, err_cases[i].count);
    T_CHECK(d.head->detail && d.head->detail[0]);
    T_EQ_STR(d.head->subject.file, "t");
  }
}

static void test_nul_byte(void)
{
  Diags d;
  diag_init(&d, &A);
  const char src[] = "a = x\0\n";
  hcl_parse_file(&A, "t", src, sizeof src - 1, &d);
  T_CHECK(d.head != NULL);
  T_EQ_STR(d.head->summary, "Invalid character");
  T_EQ_INT(d.head->subject.start.col, 6);
  /* NUL inside a string is just text */
  diag_init(&d, &A);
  const char s2[] = "\"a\0b\"";
  HclExpr *e = hcl_parse_expr(&A, "t", s2, sizeof s2 - 1, &d);
  T_EQ_INT(d.errors, 0);
  T_EQ_INT(e->u.tmpl.parts[0]->u.lit.len, 3);
}

/* ---- Ranges ------------------------------------------------------------------ */

static void test_ranges(void)
{
  Diags d;
  diag_init(&d, &A);
  HclFile *f = pfile("a = 1\nblock \"l1\" l2 {\n  b = \"x\"\n}\n", &d);
  T_EQ_INT(d.errors, 0);
  HclBody *b = f->body;
  T_EQ_INT(b->nitems, 2);
  HclAttribute *a = b->attrs[0];
  T_EQ_STR(a->name, "a");
  T_EQ_INT(a->name_range.start.col, 1);
  T_EQ_INT(a->name_range.end.col, 2);
  T_EQ_INT(a->expr->range.start.col, 5);
  T_EQ_INT(a->range.end.col, 6);
  T_EQ_INT(a->expr->range.start.byte, 4);
  HclBlock *blk = b->blocks[0];
  T_EQ_STR(blk->type, "block");
  T_EQ_INT(blk->nlabels, 2);
  T_EQ_STR(blk->labels[0], "l1");
  T_EQ_STR(blk->labels[1], "l2");
  T_EQ_INT(blk->label_quoted[0], 1);
  T_EQ_INT(blk->label_quoted[1], 0);
  T_EQ_INT(blk->label_ranges[0].start.col, 7);
  T_EQ_INT(blk->label_ranges[0].end.col, 11);
  T_EQ_INT(blk->open_brace.start.line, 2);
  T_EQ_INT(blk->open_brace.start.col, 15);
  T_EQ_INT(blk->close_brace.start.line, 4);
  T_EQ_INT(blk->close_brace.start.col, 1);
  HclAttribute *ib = hcl_body_attr(blk->body, "b");
  T_CHECK(ib != NULL);
  T_EQ_INT(ib->expr->range.start.line, 3);
  T_EQ_INT(ib->expr->range.start.col, 7);
  T_EQ_INT(ib->expr->range.end.col, 10);
  T_CHECK(hcl_body_attr(blk->body, "zz") == NULL);
  /* columns count characters, not bytes */
  diag_init(&d, &A);
  HclExpr *e = pexpr("\"\xc3\xa9\xc3\xa9\" + x", &d);
  T_EQ_INT(e->u.binary.rhs->range.start.col, 8);
  T_EQ_INT(e->u.binary.rhs->range.start.byte, 9);
  /* a combining mark does not advance the column */
  diag_init(&d, &A);
  e = pexpr("\"e\xcc\x81\" + x", &d);
  T_EQ_INT(e->u.binary.rhs->range.start.col, 7);
}

static void test_bom_crlf(void)
{
  Diags d;
  diag_init(&d, &A);
  HclFile *f = pfile("\xef\xbb\xbf" "a = 1\r\nb = \"x\"\r\n", &d);
  T_EQ_INT(d.errors, 0);
  T_EQ_STR(dump_body(f->body), "(body (a = 1) (b = (tmpl \"x\")))");
  T_EQ_INT(f->body->attrs[0]->name_range.start.byte, 3);
  T_EQ_INT(f->body->attrs[0]->name_range.start.col, 1);
  T_EQ_INT(f->body->attrs[1]->name_range.start.line, 2);
  /* heredoc with CRLF line endings */
  diag_init(&d, &A);
  f = pfile("a = <<EOT\r\nx\r\nEOT\r\nb = 2\r\n", &d);
  T_EQ_INT(d.errors, 0);
  T_EQ_STR(dump_body(f->body), "(body (a = (tmpl \"x\\r\\n\")) (b = 2))");
}

/* ---- Bodies -------------------------------------------------------------------- */

static const struct {
  const char *src, *dump;
} body_cases[] = {
    {"", "(body)"},
    {"\n\n# only a comment\n", "(body)"},
    {"// c", "(body)"},
    {"/* a\n b */\n", "(body)"},
    {"a = 1", "(body (a = 1))"},
    {"a = 1 # c\nb = 2", "(body (a = 1) (b = 2))"},
    {"a {}\n", "(body (a (body)))"},
    {"a {\n\n}\n", "(body (a (body)))"},
    {"a { b = \"foo\" }\n", "(body (a (body (b = (tmpl \"foo\")))))"},
    {"a \"x\" {}\n", "(body (a \"x\" (body)))"},
    {"a x y {}\n", "(body (a x y (body)))"},
    {"a \"x\\ty\" {}\n", "(body (a \"x\\ty\" (body)))"},
    {"a {\n  b {\n    c = 1\n  }\n}\n",
     "(body (a (body (b (body (c = 1))))))"},
    {"true = 1\nfalse = 2\nnull = 3\n",
     "(body (true = 1) (false = 2) (null = 3))"},
    {"a = 1\nb {}\nc = 2\n", "(body (a = 1) (b (body)) (c = 2))"},
    {"x = {\n  a = 1,\n  b = 2\n}\n", "(body (x = (object (a 1) (b 2))))"},
    {"x = [\n  1,\n  # c\n  2,\n]\n", "(body (x = (tuple 1 2)))"},
    {"x = f(\n  1, # one\n  2\n)\n", "(body (x = (call f 1 2)))"},
    {"x = a \\\n", NULL},
};

static void test_body_table(void)
{
  for (size_t i = 0; i < sizeof body_cases / sizeof body_cases[0]; i++) {
    Diags d;
    diag_init(&d, &A);
    HclFile *f = pfile(body_cases[i].src, &d);
    T_CHECK(f && f->body);
    if (!body_cases[i].dump) {
      T_CHECK(d.errors > 0);
      continue;
    }
    const char *got = dump_body(f->body);
    if (strcmp(got, body_cases[i].dump) != 0)
      fprintf(stderr, "body case %zu: got %s\n", i, got);
    T_EQ_STR(got, body_cases[i].dump);
    T_EQ_INT(d.errors, 0);
  }
}

static void test_redefined_keeps_first(void)
{
  Diags d;
  diag_init(&d, &A);
  HclFile *f = pfile("a = 1\nb = 2\na = 3\n", &d);
  T_EQ_INT(d.errors, 1);
  T_EQ_STR(d.head->detail, "The argument \"a\" was already set at t.tf:1,1-2. "
           "Each argument may be set only once.");
  T_EQ_STR(dump_body(f->body), "(body (a = 1) (b = 2))");
}

static void test_partial_tree_on_error(void)
{
  Diags d;
  diag_init(&d, &A);
  HclFile *f = pfile("a = [1, 2\nb = 1\nc {\n", &d);
  T_CHECK(d.errors > 0);
  T_CHECK(f->body != NULL);
  T_CHECK(f->body->nattrs >= 1);
}

/* ---- Templates ---------------------------------------------------------------- */

static const struct {
  const char *src, *dump;
} tmpl_cases[] = {
    {"", "(tmpl \"\")"},
    {"hello", "(tmpl \"hello\")"},
    {"${x}", "(wrap (trav x))"},
    {"a\n${x}\n", "(tmpl \"a\\n\" (trav x) \"\\n\")"},
    {"$${x} %%{y} $ % $x", "(tmpl \"${x} %{y} $ % $x\")"},
    {"a\\nb", "(tmpl \"a\\\\nb\")"},
    /* a bare template lexes one token per line, so ~} only trims the
    ** rest of its own line (as in HCL) */
    {"%{ if a ~}\n  yes\n%{~ endif }",
     "(tmpl (? (trav a) (tmpl \"  yes\") (tmpl \"\")))"},
    {"%{for x in xs}\n${x}\n%{endfor}",
     "(tmpl (join (for[ _ x (trav xs) (tmpl \"\\n\" (trav x) \"\\n\"))))"},
    {"a $", "(tmpl \"a $\")"},
    {"\"quoted\"", "(tmpl \"\\\"quoted\\\"\")"},
};

static void test_template_table(void)
{
  for (size_t i = 0; i < sizeof tmpl_cases / sizeof tmpl_cases[0]; i++) {
    Diags d;
    diag_init(&d, &A);
    const char *s = tmpl_cases[i].src;
    HclExpr *e = hcl_parse_template(&A, "t", s, strlen(s), &d);
    const char *got = dump_expr(e);
    if (strcmp(got, tmpl_cases[i].dump) != 0)
      fprintf(stderr, "template case %zu: got %s\n", i, got);
    T_EQ_STR(got, tmpl_cases[i].dump);
    T_EQ_INT(d.errors, 0);
  }
}

static void test_heredoc_rules(void)
{
  Diags d;
  diag_init(&d, &A);
  /* indented closing marker accepted for <<; "NOT EOT" is not a marker;
  ** blank lines kept; final newline kept */
  HclFile *f = pfile("a = <<EOT\nx\nNOT EOT\n\n  EOT\nb = <<-EOT\n\t  a\n"
                     "\t    b\n\n\t  EOT\n", &d);
  T_EQ_INT(d.errors, 0);
  T_EQ_STR(dump_body(f->body), "(body (a = (tmpl \"x\\nNOT EOT\\n\\n\")) "
           "(b = (tmpl \"a\\n  b\\n\\n\")))");
  /* interpolated text is not measured for <<- */
  diag_init(&d, &A);
  f = pfile("a = <<-EOT\n    ${x}\n      y\n  EOT\n", &d);
  T_EQ_INT(d.errors, 0);
  T_EQ_STR(dump_body(f->body),
           "(body (a = (tmpl \"\" (trav x) \"\\n  y\\n\")))");
  /* unterminated at EOF */
  diag_init(&d, &A);
  pfile("a = <<EOT\nabc", &d);
  T_EQ_STR(d.head->summary, "Unterminated template string");
  /* << not followed by a marker and newline is two less-than operators */
  diag_init(&d, &A);
  HclExpr *e = pexpr("a << b", &d);
  T_CHECK(d.errors > 0);
  T_CHECK(e != NULL);
}

static void test_strip_markers_in_heredoc(void)
{
  Diags d;
  diag_init(&d, &A);
  HclFile *f = pfile("a = <<EOT\n%{ for x in xs ~}\n  ${x}\n%{ endfor ~}\n"
                     "end\nEOT\n", &d);
  T_EQ_INT(d.errors, 0);
  T_EQ_STR(dump_body(f->body),
           "(body (a = (tmpl (join (for[ _ x (trav xs) (tmpl \"  \" (trav x) "
           "\"\\n\"))) \"end\\n\")))");
}

/* ---- References ----------------------------------------------------------------- */

static const char *refs(const char *src)
{
  Diags d;
  diag_init(&d, &A);
  HclExpr *e = pexpr(src, &d);
  HclTraversal *t;
  uint32_t n;
  hcl_expr_references(&A, e, &t, &n);
  Buf b;
  buf_init(&b, &A);
  for (uint32_t i = 0; i < n; i++) {
    if (i)
      buf_puts(&b, " | ");
    for (uint32_t k = 0; k < t[i].n; k++) {
      const HclStep *s = &t[i].steps[k];
      if (s->kind == HCL_STEP_ROOT)
        buf_puts(&b, s->name);
      else if (s->kind == HCL_STEP_ATTR)
        buf_printf(&b, ".%s", s->name);
      else if (s->key->type == &ty_number)
        buf_printf(&b, "[%lld]", (long long)s->key->u.i);
      else if (s->key->type == &ty_string)
        buf_printf(&b, "[\"%s\"]", s->key->u.s);
      else
        buf_puts(&b, "[?]");
    }
  }
  return buf_str(&b);
}

static void test_references(void)
{
  T_EQ_STR(refs("1 + 2"), "");
  T_EQ_STR(refs("var.a + local.b[0]"), "var.a | local.b[0]");
  T_EQ_STR(refs("aws_instance.web[count.index].id"),
           "aws_instance.web | count.index");
  T_EQ_STR(refs("[for x in var.xs : x.name if x.on]"), "var.xs");
  T_EQ_STR(refs("{for k, v in var.m : k => v + local.z}"), "var.m | local.z");
  T_EQ_STR(refs("[for x in x : x]"), "x");
  T_EQ_STR(refs("aws_instance.web[*].id"), "aws_instance.web");
  T_EQ_STR(refs("module.m.*.out"), "module.m");
  T_EQ_STR(refs("\"${var.a}-${upper(local.b)}\""), "var.a | local.b");
  T_EQ_STR(refs("{a = var.x, (local.k) = 1, b.c = 2}"),
           "var.x | local.k | b.c");
  T_EQ_STR(refs("var.list.0.name"), "var.list[0].name");
  T_EQ_STR(refs("a ? b : c"), "a | b | c");
  T_EQ_STR(refs("\"%{for i in var.l}${i}${each.key}%{endfor}\""),
           "var.l | each.key");
  T_EQ_STR(refs("f(x)[y]"), "x | y");
  T_EQ_STR(refs("local.m[\"k\"].a"), "local.m[\"k\"].a");
  T_EQ_STR(refs("[for a in b : [for c in a : c + d]]"), "b | d");
}

static void test_keyword_and_traversal(void)
{
  Diags d;
  diag_init(&d, &A);
  T_EQ_STR(hcl_expr_as_keyword(&A, pexpr("foo", &d)), "foo");
  T_EQ_STR(hcl_expr_as_keyword(&A, pexpr("(foo)", &d)), "foo");
  T_EQ_STR(hcl_expr_as_keyword(&A, pexpr("null", &d)), "null");
  T_CHECK(hcl_expr_as_keyword(&A, pexpr("foo.bar", &d)) == NULL);
  T_CHECK(hcl_expr_as_keyword(&A, pexpr("\"foo\"", &d)) == NULL);
  HclTraversal t;
  T_CHECK(hcl_expr_as_traversal(&A, pexpr("a.b[\"c\"][0]", &d), &t, &d));
  T_EQ_INT(t.n, 4);
  T_EQ_INT(d.errors, 0);
  T_CHECK(!hcl_expr_as_traversal(&A, pexpr("a.b[c]", &d), &t, &d));
  T_EQ_STR(d.tail->summary, "Invalid expression");
  diag_init(&d, &A);
  T_CHECK(hcl_parse_traversal(&A, "t", "aws_instance.web", 16, &t, &d));
  T_EQ_INT(t.n, 2);
  T_EQ_STR(t.steps[1].name, "web");
  T_CHECK(!hcl_parse_traversal(&A, "t", "f(x)", 4, &t, &d));
}

/* ---- Schema decoding (native) ----------------------------------------------------- */

static const char *const res_labels[] = {"type", "name"};
static const HclAttrSchema top_attrs[] = {{"count", false},
                                          {"ami", true}};
static const HclBlockSchema top_blocks[] = {{"resource", res_labels, 2},
                                            {"lifecycle", NULL, 0}};
static const HclBodySchema top_schema = {top_attrs, 2, top_blocks, 2};

static void test_content_native(void)
{
  Diags d;
  diag_init(&d, &A);
  HclFile *f = pfile("ami = \"x\"\nresource \"a\" \"b\" {}\n"
                     "lifecycle {}\ncount = 2\n", &d);
  HclBodyContent c;
  T_CHECK(hcl_body_content(&A, f->body, &top_schema, &c, &d));
  T_EQ_INT(c.nattrs, 2);
  T_EQ_INT(c.nblocks, 2);
  T_CHECK(hcl_content_attr(&c, "ami") != NULL);
  T_EQ_STR(c.blocks[0]->type, "resource");
  T_EQ_STR(c.blocks[1]->type, "lifecycle");
  T_EQ_INT(d.errors, 0);
}

static void test_content_errors(void)
{
  Diags d;
  diag_init(&d, &A);
  HclFile *f = pfile("amii = 1\nlifecycle = 2\nresourc \"a\" \"b\" {}\n"
                     "count {}\n", &d);
  HclBodyContent c;
  T_CHECK(!hcl_body_content(&A, f->body, &top_schema, &c, &d));
  Diag *g = d.head;
  T_EQ_STR(g->summary, "Missing required argument");
  T_EQ_STR(g->detail, "The argument \"ami\" is required, but no definition "
           "was found.");
  T_EQ_INT(g->subject.start.line, 1);
  g = g->next;
  T_EQ_STR(g->summary, "Unsupported argument");
  T_EQ_STR(g->detail, "An argument named \"amii\" is not expected here. Did "
           "you mean \"ami\"?");
  g = g->next;
  T_EQ_STR(g->summary, "Unsupported argument");
  T_EQ_STR(g->detail, "An argument named \"lifecycle\" is not expected here. "
           "Did you mean to define a block of type \"lifecycle\"?");
  g = g->next;
  T_EQ_STR(g->summary, "Unsupported block type");
  T_EQ_STR(g->detail, "Blocks of type \"resourc\" are not expected here. Did "
           "you mean \"resource\"?");
  T_EQ_INT(g->subject.start.line, 3);
  g = g->next;
  T_EQ_STR(g->summary, "Unsupported block type");
  T_EQ_STR(g->detail, "Blocks of type \"count\" are not expected here. Did "
           "you mean to define argument \"count\"? If so, use the equals "
           "sign to assign it a value.");
  T_CHECK(g->next == NULL);
}

static void test_content_labels(void)
{
  Diags d;
  diag_init(&d, &A);
  HclFile *f = pfile("ami = 1\nresource \"a\" {}\nresource \"a\" \"b\" \"c\" "
                     "{}\nlifecycle \"x\" {}\n", &d);
  HclBodyContent c;
  T_CHECK(!hcl_body_content(&A, f->body, &top_schema, &c, &d));
  Diag *g = d.head;
  T_EQ_STR(g->summary, "Missing name for resource");
  T_EQ_STR(g->detail, "All resource blocks must have 2 labels (type, name).");
  T_EQ_INT(g->subject.start.line, 2);
  T_EQ_INT(g->subject.start.col, 14);
  g = g->next;
  T_EQ_STR(g->summary, "Extraneous label for resource");
  T_EQ_STR(g->detail, "Only 2 labels (type, name) are expected for resource "
           "blocks.");
  T_EQ_INT(g->subject.start.col, 18);
  g = g->next;
  T_EQ_STR(g->summary, "Extraneous label for lifecycle");
  T_EQ_STR(g->detail, "No labels are expected for lifecycle blocks.");
  T_EQ_INT(c.nblocks, 0);
}

static void test_partial_content_and_remain(void)
{
  Diags d;
  diag_init(&d, &A);
  HclFile *f = pfile("ami = 1\nextra = 2\nresource \"a\" \"b\" {}\n"
                     "other {}\n", &d);
  HclBodyContent c;
  HclBody *rem;
  T_CHECK(hcl_body_partial_content(&A, f->body, &top_schema, &c, &rem, &d));
  T_EQ_INT(c.nattrs, 1);
  T_EQ_INT(c.nblocks, 1);
  static const HclAttrSchema a2[] = {{"extra", true}};
  static const HclBlockSchema b2[] = {{"other", NULL, 0}};
  static const HclBodySchema s2 = {a2, 1, b2, 1};
  T_CHECK(hcl_body_content(&A, rem, &s2, &c, &d));
  T_EQ_INT(c.nattrs, 1);
  T_EQ_INT(c.nblocks, 1);
  T_EQ_INT(d.errors, 0);
  /* ami is hidden in the remainder */
  static const HclAttrSchema a3[] = {{"ami", true}};
  static const HclBodySchema s3 = {a3, 1, NULL, 0};
  T_CHECK(!hcl_body_partial_content(&A, rem, &s3, &c, NULL, &d));
  T_EQ_STR(d.head->summary, "Missing required argument");
}

static void test_just_attributes(void)
{
  Diags d;
  diag_init(&d, &A);
  HclFile *f = pfile("a = 1\nb = 2\nblk {}\n", &d);
  HclAttribute **at;
  uint32_t n;
  T_CHECK(!hcl_body_just_attributes(&A, f->body, &at, &n, &d));
  T_EQ_INT(n, 2);
  T_EQ_STR(at[1]->name, "b");
  T_EQ_STR(d.head->summary, "Unexpected \"blk\" block");
  T_EQ_STR(d.head->detail, "Blocks are not allowed here.");
}

static void test_name_suggestion(void)
{
  static const char *const names[] = {"count", "for_each", "provider"};
  T_EQ_STR(hcl_name_suggestion("cont", names, 3), "count");
  T_EQ_STR(hcl_name_suggestion("foreach", names, 3), "for_each");
  T_CHECK(hcl_name_suggestion("zzz", names, 3) == NULL);
  T_EQ_STR(hcl_name_suggestion("providr", names, 3), "provider");
}

/* ---- JSON -------------------------------------------------------------------------- */

static void test_json_content(void)
{
  Diags d;
  diag_init(&d, &A);
  HclFile *f = pjson("{\"//\": \"c\", \"ami\": \"ami-${var.x}\", "
                     "\"resource\": {\"aws_instance\": {\"web\": "
                     "{\"count\": 2}, \"db\": [{\"a\": 1}, {\"a\": 2}]}}}",
                     &d);
  T_EQ_INT(d.errors, 0);
  T_CHECK(f->body->json);
  HclBodyContent c;
  T_CHECK(hcl_body_content(&A, f->body, &top_schema, &c, &d));
  T_EQ_INT(d.errors, 0);
  T_EQ_INT(c.nattrs, 1);
  T_EQ_INT(c.nblocks, 3);
  T_EQ_STR(c.blocks[0]->labels[0], "aws_instance");
  T_EQ_STR(c.blocks[0]->labels[1], "web");
  T_EQ_STR(c.blocks[2]->labels[1], "db");
  T_CHECK(c.blocks[0]->body->json);
  HclAttribute *ami = hcl_content_attr(&c, "ami");
  T_EQ_INT(ami->expr->kind, HCL_E_JSON);
  HclExpr *e = hcl_json_to_expr(&A, ami->expr, false, &d);
  T_EQ_STR(dump_expr(e), "(tmpl \"ami-\" (trav var .x))");
  /* positions inside the JSON string map back into the file */
  T_EQ_INT(e->u.tmpl.parts[1]->range.start.col, 27);
  T_EQ_INT(e->u.tmpl.parts[1]->range.start.byte, 26);
  HclExpr *l = hcl_json_to_expr(&A, ami->expr, true, &d);
  T_EQ_STR(dump_expr(l), "\"ami-${var.x}\"");
  /* nested body content */
  static const HclAttrSchema ra[] = {{"count", false}};
  static const HclBodySchema rs = {ra, 1, NULL, 0};
  HclBodyContent rc;
  T_CHECK(hcl_body_content(&A, c.blocks[0]->body, &rs, &rc, &d));
  T_EQ_INT(rc.nattrs, 1);
  T_EQ_STR(dump_expr(hcl_json_to_expr(&A, rc.attrs[0]->expr, false, &d)),
           "2");
}

static void test_json_expressions(void)
{
  Diags d;
  diag_init(&d, &A);
  HclFile *f = pjson("{\"v\": {\"a\": [1, true, null, \"${x}\"], "
                     "\"${k}\": \"s\"}}", &d);
  HclAttribute **at;
  uint32_t n;
  T_CHECK(hcl_body_just_attributes(&A, f->body, &at, &n, &d));
  T_EQ_INT(n, 1);
  HclExpr *e = hcl_json_to_expr(&A, at[0]->expr, false, &d);
  T_EQ_STR(dump_expr(e), "(object (\"a\" (tuple 1 true null "
           "(wrap (trav x)))) ((wrap (trav k)) \"s\"))");
  T_CHECK(e->u.object.unique_keys);
  HclTraversal *t;
  uint32_t nt;
  hcl_expr_references(&A, at[0]->expr, &t, &nt);
  T_EQ_INT(nt, 2);
  T_EQ_STR(t[0].steps[0].name, "x");
  T_EQ_STR(t[1].steps[0].name, "k");
  T_EQ_INT(d.errors, 0);
}

static void test_json_errors_content(void)
{
  Diags d;
  diag_init(&d, &A);
  HclFile *f = pjson("{\"ami\": 1, \"ami\": 2, \"amx\": 3, "
                     "\"resource\": {\"t\": 5}}", &d);
  HclBodyContent c;
  T_CHECK(!hcl_body_content(&A, f->body, &top_schema, &c, &d));
  Diag *g = d.head;
  T_EQ_STR(g->summary, "Duplicate argument");
  g = g->next;
  T_EQ_STR(g->summary, "Incorrect JSON value type");
  T_EQ_STR(g->detail, "Either a JSON object or JSON array of objects is "
           "required here, to specify name labels for this block.");
  g = g->next;
  T_EQ_STR(g->summary, "Missing block label");
  g = g->next;
  T_EQ_STR(g->summary, "Extraneous JSON object property");
  T_EQ_STR(g->detail, "No argument or block type is named \"amx\".");
}

static void test_json_missing_label(void)
{
  Diags d;
  diag_init(&d, &A);
  HclFile *f = pjson("{\"ami\": 1, \"resource\": {}}", &d);
  HclBodyContent c;
  T_CHECK(!hcl_body_content(&A, f->body, &top_schema, &c, &d));
  T_EQ_STR(d.head->summary, "Missing block label");
  T_EQ_STR(d.head->detail, "At least one object property is required, whose "
           "name represents the resource block's type.");
  /* missing required argument points at the closing brace */
  diag_init(&d, &A);
  f = pjson("{\n}", &d);
  T_CHECK(!hcl_body_content(&A, f->body, &top_schema, &c, &d));
  T_EQ_INT(d.head->subject.start.line, 2);
  T_EQ_INT(d.head->subject.start.col, 1);
}

static void test_json_numbers_strings(void)
{
  Diags d;
  diag_init(&d, &A);
  HclFile *f = pjson("{\"a\": 12345678901234567890, \"b\": 1.50, \"c\": "
                     "\"\\u00e9\\ud83d\\ude00\\n\", \"d\": -0.5e3}", &d);
  T_EQ_INT(d.errors, 0);
  const HclJsonValue *v = f->body->jv;
  T_EQ_INT(v->u.obj.n, 4);
  Buf b;
  buf_init(&b, &A);
  val_num_format(&b, v->u.obj.props[3].value->u.num);
  T_EQ_STR(buf_str(&b), "-500");
  T_EQ_STR(v->u.obj.props[2].value->u.str.s, "\xc3\xa9\xf0\x9f\x98\x80\n");
  T_EQ_INT(v->u.obj.props[0].value->kind, HCL_J_NUMBER);
}

/* ---- Robustness --------------------------------------------------------------------- */

static char *repeat(const char *pre, const char *unit, size_t n,
                    const char *mid, const char *unit2, const char *post)
{
  Buf b;
  buf_init(&b, &A);
  buf_puts(&b, pre);
  for (size_t i = 0; i < n; i++)
    buf_puts(&b, unit);
  buf_puts(&b, mid);
  for (size_t i = 0; i < n; i++)
    buf_puts(&b, unit2);
  buf_puts(&b, post);
  return b.p;
}

static void test_deep_nesting(void)
{
  static const char *const units[][2] = {
      {"[", "]"}, {"(", ")"}, {"{a=", "}"}, {"\"${", "}\""}, {"f(", ")"},
      {"-", ""}, {"!", ""}, {"[for x in ", ": x]"}, {"x ? 1 : ", ""}};
  for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
    Diags d;
    diag_init(&d, &A);
    char *s = repeat("a = ", units[u][0], 10000, "1", units[u][1], "\n");
    HclFile *f = pfile(s, &d);
    T_CHECK(f != NULL);
    T_CHECK(d.errors > 0);
    bool found = false;
    for (Diag *g = d.head; g; g = g->next)
      found |= strcmp(g->summary, "Nesting too deep") == 0;
    T_CHECK(found);
  }
  /* just under the limit parses cleanly */
  Diags d;
  diag_init(&d, &A);
  char *s = repeat("a = ", "[", HCL_MAX_DEPTH - 1, "", "]", "\n");
  pfile(s, &d);
  T_EQ_INT(d.errors, 0);
  /* nested blocks */
  diag_init(&d, &A);
  s = repeat("", "a {\n", 5000, "", "}\n", "");
  pfile(s, &d);
  T_CHECK(d.errors > 0);
  /* deep JSON */
  diag_init(&d, &A);
  s = repeat("", "[", 10000, "", "]", "");
  pjson(s, &d);
  T_CHECK(d.errors > 0);
  /* unbalanced openers only */
  diag_init(&d, &A);
  s = repeat("a = ", "([{", 20000, "", "", "");
  pfile(s, &d);
  T_CHECK(d.errors > 0);
  /* a long attribute-only splat / traversal chain */
  diag_init(&d, &A);
  s = repeat("a = x", ".y", 100000, "", "", "\n");
  HclFile *f = pfile(s, &d);
  T_EQ_INT(d.errors, 0);
  T_EQ_INT(f->body->attrs[0]->expr->u.trav.n, 100001);
}

static void test_big_inputs(void)
{
  Diags d;
  diag_init(&d, &A);
  /* a 1 MB single-line string */
  char *s = repeat("a = \"", "x", 1 << 20, "", "", "\"\n");
  HclFile *f = pfile(s, &d);
  T_EQ_INT(d.errors, 0);
  T_EQ_INT(f->body->attrs[0]->expr->u.tmpl.parts[0]->u.lit.len, 1 << 20);
  /* many unterminated block comments must stay linear */
  diag_init(&d, &A);
  s = repeat("", "/*", 200000, "", "", "");
  pfile(s, &d);
  T_CHECK(d.errors > 0);
  /* many attributes: redefinition check is not quadratic */
  Buf b;
  buf_init(&b, &A);
  for (int i = 0; i < 50000; i++)
    buf_printf(&b, "a%d = %d\n", i, i);
  buf_puts(&b, "a7 = 1\n");
  diag_init(&d, &A);
  f = pfile(b.p, &d);
  T_EQ_INT(d.errors, 1);
  T_EQ_INT(f->body->nattrs, 50000);
  /* the same for JSON properties read as attributes (found by fuzzing:
  ** the duplicate check was quadratic) */
  buf_init(&b, &A);
  buf_puts(&b, "{");
  for (int i = 0; i < 50000; i++)
    buf_printf(&b, "\"a%d\": %d, ", i, i);
  buf_puts(&b, "\"a7\": 1}");
  diag_init(&d, &A);
  f = pjson(b.p, &d);
  HclAttribute **at;
  uint32_t n;
  T_CHECK(!hcl_body_just_attributes(&A, f->body, &at, &n, &d));
  T_EQ_INT(n, 50000);
  T_EQ_INT(d.errors, 1);
  T_EQ_STR(d.head->summary, "Duplicate attribute definition");
  T_EQ_STR(at[49999]->name, "a49999");
}

static void test_bad_bytes(void)
{
  Diags d;
  diag_init(&d, &A);
  pfile("a = \"\xff\xfe\"\nb = \xc3\n", &d);
  T_EQ_STR(d.head->summary, "Invalid character encoding");
  T_EQ_INT(d.head->subject.start.col, 6);
  /* reported once */
  int n = 0;
  for (Diag *g = d.head; g; g = g->next)
    n += strcmp(g->summary, "Invalid character encoding") == 0;
  T_EQ_INT(n, 1);
  /* every byte value at the start of an expression, in strings, heredocs */
  for (int c = 0; c < 256; c++) {
    char src[64];
    int len = snprintf(src, sizeof src, "a = %c\nb = \"%c\"\nc = <<E\n%c\nE\n",
                       c ? c : ' ', c ? c : ' ', c ? c : ' ');
    src[4] = (char)c;
    diag_init(&d, &A);
    HclFile *f = hcl_parse_file(&A, "t", src, (size_t)len, &d);
    T_CHECK(f != NULL);
  }
  /* unterminated constructs at EOF */
  static const char *const eofs[] = {"a = \"", "a = \"${", "a = <<EOT\n",
                                     "a = <<-EOT\n  ${x", "a = [", "a = {",
                                     "a = f(", "a {", "a = \"%{if x}",
                                     "a = x[", "a = x.", "a = (", "a = -",
                                     "a \"", "a = {for", "a = \"\\"};
  for (size_t i = 0; i < sizeof eofs / sizeof eofs[0]; i++) {
    diag_init(&d, &A);
    HclFile *f = pfile(eofs[i], &d);
    T_CHECK(f != NULL);
    T_CHECK(d.errors > 0);
  }
}

/* ---- Tokens ------------------------------------------------------------------------ */

static void test_tokens(void)
{
  Diags d;
  diag_init(&d, &A);
  const char *src = "a = \"x${y}\" # c\nb = <<EOT\nz\nEOT\n";
  HclToken *t;
  uint32_t n;
  hcl_lex(&A, "t", src, strlen(src), &t, &n, &d);
  static const HclTokenKind want[] = {
      HCL_TOK_IDENT, HCL_TOK_EQUAL, HCL_TOK_OQUOTE, HCL_TOK_QUOTED_LIT,
      HCL_TOK_TEMPLATE_INTERP, HCL_TOK_IDENT, HCL_TOK_TEMPLATE_SEQ_END,
      HCL_TOK_CQUOTE, HCL_TOK_COMMENT, HCL_TOK_IDENT, HCL_TOK_EQUAL,
      HCL_TOK_OHEREDOC, HCL_TOK_STRING_LIT, HCL_TOK_CHEREDOC, HCL_TOK_NEWLINE,
      HCL_TOK_EOF};
  T_EQ_INT(n, sizeof want / sizeof want[0]);
  for (uint32_t i = 0; i < n && i < sizeof want / sizeof want[0]; i++)
    T_EQ_STR(hcl_token_name((HclTokenKind)t[i].kind), hcl_token_name(want[i]));
  /* the comment token includes its newline */
  T_EQ_INT(t[8].end.line, 2);
  T_EQ_INT(t[8].end.byte - t[8].start.byte, 4);
  /* text by offset */
  T_EQ_INT(t[3].start.byte, 5);
  T_EQ_INT(t[3].end.byte, 6);
  T_EQ_STR(hcl_token_name(HCL_TOK_OBRACE), "TokenOBrace");
  SrcRange r = hcl_token_range("t", &t[0]);
  T_EQ_STR(r.file, "t");
  T_EQ_INT(d.errors, 0);
  /* operators */
  diag_init(&d, &A);
  src = "== != <= >= && || => ... :: ? : ! % ~} ${ %{";
  hcl_lex(&A, "t", src, strlen(src), &t, &n, &d);
  T_EQ_INT(t[0].kind, HCL_TOK_EQUAL_OP);
  T_EQ_INT(t[5].kind, HCL_TOK_OR);
  T_EQ_INT(t[6].kind, HCL_TOK_FAT_ARROW);
  T_EQ_INT(t[7].kind, HCL_TOK_ELLIPSIS);
  T_EQ_INT(t[8].kind, HCL_TOK_DOUBLE_COLON);
  T_EQ_INT(t[13].kind, HCL_TOK_TEMPLATE_SEQ_END);
  T_EQ_INT(t[14].kind, HCL_TOK_INVALID);
}

static void test_numbers_lexing(void)
{
  Diags d;
  diag_init(&d, &A);
  HclExpr *e = pexpr("2.5e-1", &d);
  T_EQ_INT(d.errors, 0);
  T_EQ_INT(e->kind, HCL_E_LITERAL);
  Buf b;
  buf_init(&b, &A);
  val_num_format(&b, e->u.lit);
  T_EQ_STR(buf_str(&b), "0.25");
  /* 1. is a number followed by a dot */
  diag_init(&d, &A);
  pexpr("1.", &d);
  T_EQ_STR(d.head->summary, "Invalid attribute name");
  /* "1..2" is one number token that does not parse */
  diag_init(&d, &A);
  pexpr("1..2", &d);
  T_EQ_STR(d.head->summary, "Invalid number literal");
}

/* ---- Files under tests/hcl ---------------------------------------------------------- */

static void test_file_structure(void)
{
  size_t n;
  char *s = read_file("tests/hcl/structure.tf", &n);
  T_CHECK(s != NULL);
  if (!s)
    return;
  Diags d;
  diag_init(&d, &A);
  HclFile *f = hcl_parse_file(&A, "structure.tf", s, n, &d);
  T_EQ_INT(d.errors, 0);
  T_EQ_STR(dump_body(f->body),
           "(body (io_mode = (tmpl \"async\")) (service \"http\" web_proxy "
           "(body (listen_addr = (tmpl \"127.0.0.1:8080\")) (process \"main\" "
           "(body (command = (tuple (tmpl \"/usr/local/bin/awesome-app\") "
           "(tmpl \"server\"))))) (process \"mgmt\" (body (command = (tuple "
           "(tmpl \"/usr/local/bin/awesome-app\") (tmpl \"mgmt\"))))) "
           "(empty (body)) (one (body (x = 1))))))");
}

static void test_file_expressions(void)
{
  size_t n;
  char *s = read_file("tests/hcl/expressions.tf", &n);
  T_CHECK(s != NULL);
  if (!s)
    return;
  Diags d;
  diag_init(&d, &A);
  HclFile *f = hcl_parse_file(&A, "expressions.tf", s, n, &d);
  T_EQ_INT(d.errors, 0);
  HclBody *l = f->body->blocks[0]->body;
  T_EQ_INT(l->nattrs, 10);
  T_EQ_STR(dump_expr(hcl_body_attr(l, "by_zone")->expr),
           "(for{ _ s (trav var .servers) (trav s .zone) (trav s .id) ...)");
  T_EQ_STR(dump_expr(hcl_body_attr(l, "legacy")->expr),
           "(splat. (trav aws_instance .web) (rel @ .id))");
  T_EQ_STR(dump_expr(hcl_body_attr(l, "old_index")->expr),
           "(trav var .list .0)");
  T_EQ_STR(dump_expr(hcl_body_attr(l, "math")->expr),
           "(% (* (neg (trav var .x)) (paren (+ 2 3))) 4)");
  T_EQ_STR(dump_expr(hcl_body_attr(l, "arn")->expr),
           "(call provider::aws::arn_parse (trav var .arn))");
  HclExpr *arn = hcl_body_attr(l, "arn")->expr;
  T_EQ_STR(arn->u.call.base, "arn_parse");
  T_EQ_INT(arn->u.call.nparts, 3);
  /* HCL quirk kept (terraform#23710): after a ~} the next line is not
  ** seen as a line start by <<- trimming, so it keeps its indentation */
  T_EQ_STR(dump_expr(hcl_body_attr(l, "banner")->expr),
           "(tmpl \"Hello, \" (trav var .name) \"!\\n\" (join (for[ i v "
           "(trav var .items) (tmpl \"    \" (trav i) \": \" (trav v) "
           "\"\\n\"))) \"    Bye.\\n\")");
}

static void test_file_json(void)
{
  size_t n;
  char *s = read_file("tests/hcl/example.tf.json", &n);
  T_CHECK(s != NULL);
  if (!s)
    return;
  Diags d;
  diag_init(&d, &A);
  HclFile *f = hcl_parse_json_file(&A, "example.tf.json", s, n, &d);
  T_EQ_INT(d.errors, 0);
  static const char *const one[] = {"name"};
  static const char *const two[] = {"type", "name"};
  static const HclBlockSchema bs[] = {
      {"variable", one, 1}, {"resource", two, 2}, {"output", one, 1}};
  static const HclBodySchema sch = {NULL, 0, bs, 3};
  HclBodyContent c;
  T_CHECK(hcl_body_content(&A, f->body, &sch, &c, &d));
  T_EQ_INT(c.nblocks, 5);
  T_EQ_STR(c.blocks[1]->labels[1], "web");
  T_EQ_STR(c.blocks[2]->labels[1], "db");
  T_EQ_STR(c.blocks[3]->labels[1], "db");
  T_EQ_STR(c.blocks[4]->type, "output");
  HclAttribute **at;
  uint32_t na;
  T_CHECK(hcl_body_just_attributes(&A, c.blocks[4]->body, &at, &na, &d));
  HclTraversal *t;
  uint32_t nt;
  hcl_expr_references(&A, at[0]->expr, &t, &nt);
  T_EQ_INT(nt, 1);
  T_EQ_INT(t[0].n, 4);
  T_EQ_STR(t[0].steps[3].name, "public_ip");
  T_EQ_INT(hcl_trav_range(&t[0]).start.line, 13);
}

static void test_file_template(void)
{
  size_t n;
  char *s = read_file("tests/hcl/template.tmpl", &n);
  T_CHECK(s != NULL);
  if (!s)
    return;
  Diags d;
  diag_init(&d, &A);
  HclExpr *e = hcl_parse_template(&A, "template.tmpl", s, n, &d);
  T_EQ_INT(d.errors, 0);
  T_EQ_STR(dump_expr(e),
           "(tmpl \"Dear \" (trav name) \",\\n\" (? (trav admin) (tmpl "
           "\"You are an administrator.\\n\") (tmpl \"\")) \"\" (join (for[ _ item "
           "(trav items) (tmpl \"- \" (trav item) \"\\n\"))) \"Literal: "
           "${not_interpolated} and %{not_a_directive}\\n\")");
}

int main(void)
{
  arena_init(&A, 0);
  T_RUN(test_expr_table);
  T_RUN(test_error_table);
  T_RUN(test_nul_byte);
  T_RUN(test_ranges);
  T_RUN(test_bom_crlf);
  T_RUN(test_body_table);
  T_RUN(test_redefined_keeps_first);
  T_RUN(test_partial_tree_on_error);
  T_RUN(test_template_table);
  T_RUN(test_heredoc_rules);
  T_RUN(test_strip_markers_in_heredoc);
  T_RUN(test_references);
  T_RUN(test_keyword_and_traversal);
  T_RUN(test_content_native);
  T_RUN(test_content_errors);
  T_RUN(test_content_labels);
  T_RUN(test_partial_content_and_remain);
  T_RUN(test_just_attributes);
  T_RUN(test_name_suggestion);
  T_RUN(test_json_content);
  T_RUN(test_json_expressions);
  T_RUN(test_json_errors_content);
  T_RUN(test_json_missing_label);
  T_RUN(test_json_numbers_strings);
  T_RUN(test_deep_nesting);
  T_RUN(test_big_inputs);
  T_RUN(test_bad_bytes);
  T_RUN(test_tokens);
  T_RUN(test_numbers_lexing);
  T_RUN(test_file_structure);
  T_RUN(test_file_expressions);
  T_RUN(test_file_json);
  T_RUN(test_file_template);
  arena_release(&A);
  return t_done("hcl");
}
