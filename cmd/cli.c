/*
** cli.c: flag parsing, output helpers and suggestions for the commands.
*/
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void cli_list_add_from(Arena *a, CliList *l, const char *flag,
                       const char *item)
{
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 4;
    l->items = arena_grow(a, (void *)l->items, sizeof(char *),
                          _Alignof(char *), (size_t)l->cap, (size_t)cap);
    l->flags = arena_grow(a, (void *)l->flags, sizeof(char *),
                          _Alignof(char *), (size_t)l->cap, (size_t)cap);
    l->cap = cap;
  }
  l->flags[l->n] = flag;
  l->items[l->n++] = item;
}

uint32_t cli_var_args(Arena *a, const CliList *l, VarsArg **out)
{
  VarsArg *v = ARENA_NEW(a, VarsArg, (size_t)l->n + 1);
  for (int i = 0; i < l->n; i++) {
    v[i].kind = l->flags[i] && strcmp(l->flags[i], "var") == 0
                    ? VARS_CLI_VAR
                    : VARS_CLI_FILE;
    v[i].text = l->items[i];
  }
  *out = v;
  return (uint32_t)l->n;
}

void cli_list_add(Arena *a, CliList *l, const char *item)
{
  cli_list_add_from(a, l, NULL, item);
}

static bool parse_bool(const char *s, bool *out)
{
  static const char *const t[] = {"1", "t", "T", "true", "TRUE", "True"};
  static const char *const f[] = {"0", "f", "F", "false", "FALSE", "False"};
  for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
    if (strcmp(s, t[i]) == 0) {
      *out = true;
      return true;
    }
    if (strcmp(s, f[i]) == 0) {
      *out = false;
      return true;
    }
  }
  return false;
}

bool cli_parse_flags(Cli *cli, int argc, char **argv, const CliFlag *flags,
                     int nflags, int *rest, Diags *d)
{
  int i = 0;
  while (i < argc) {
    const char *arg = argv[i];
    if (arg[0] != '-' || arg[1] == 0)
      break;
    if (strcmp(arg, "--") == 0) {
      i++;
      break;
    }
    const char *name = arg + 1;
    if (*name == '-')
      name++;
    const char *eq = strchr(name, '=');
    size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
    const CliFlag *fl = NULL;
    for (int k = 0; k < nflags; k++)
      if (strlen(flags[k].name) == nlen &&
          strncmp(flags[k].name, name, nlen) == 0)
        fl = &flags[k];
    if (!fl) {
      diag_error(d, NULL, "Failed to parse command-line flags",
                 "flag provided but not defined: -%.*s", (int)nlen, name);
      return false;
    }
    i++;
    const char *val = eq ? eq + 1 : NULL;
    if (fl->kind == FLAG_BOOL) {
      bool b = true;
      if (val && !parse_bool(val, &b)) {
        diag_error(d, NULL, "Failed to parse command-line flags",
                   "invalid boolean value \"%s\" for -%s: parse error", val,
                   fl->name);
        return false;
      }
      *(bool *)fl->target = b;
      continue;
    }
    if (!val) {
      if (i >= argc) {
        diag_error(d, NULL, "Failed to parse command-line flags",
                   "flag needs an argument: -%s", fl->name);
        return false;
      }
      val = argv[i++];
    }
    if (fl->kind == FLAG_STRING) {
      *(const char **)fl->target = val;
    } else if (fl->kind == FLAG_LIST) {
      cli_list_add_from(cli->arena, fl->target, fl->name, val);
    } else {
      char *end;
      errno = 0;
      long v = strtol(val, &end, 0);
      if (errno || *end || end == val || v < INT_MIN || v > INT_MAX) {
        diag_error(d, NULL, "Failed to parse command-line flags",
                   "invalid value \"%s\" for flag -%s: parse error", val,
                   fl->name);
        return false;
      }
      *(int *)fl->target = (int)v;
    }
  }
  *rest = i;
  return true;
}

static void vwrite(FILE *f, const char *fmt, va_list ap)
{
  vfprintf(f, fmt, ap);
}

void cli_out(Cli *cli, const char *fmt, ...)
{
  (void)cli;
  va_list ap;
  va_start(ap, fmt);
  vwrite(stdout, fmt, ap);
  va_end(ap);
}

void cli_err(Cli *cli, const char *fmt, ...)
{
  (void)cli;
  fflush(stdout);
  va_list ap;
  va_start(ap, fmt);
  vwrite(stderr, fmt, ap);
  va_end(ap);
  fflush(stderr);
}

void cli_out_buf(Cli *cli, const Buf *b)
{
  (void)cli;
  if (b->len)
    fwrite(b->p, 1, b->len, stdout);
}

void cli_diags(Cli *cli, const Diags *d)
{
  if (!d->head)
    return;
  ArenaMark m = arena_mark(cli->arena);
  Buf b;
  buf_init(&b, cli->arena);
  /* Terraform wraps diagnostics at its stderr's width: the terminal's,
  ** or 78 columns when stderr is not a terminal (terminal.Streams'
  ** defaultColumns), so logs and tools see its line breaks. */
  DiagStyle st = {cli->color, cli->stderr_tty ? cli->width : 78};
  /* as Terraform's views do: errors to stderr, warnings to stdout, each
  ** in turn so the two streams interleave in order on a terminal */
  for (const Diag *g = d->head; g; g = g->next) {
    buf_clear(&b);
    diag_render(&b, g, &cli->files, st);
    FILE *f = g->severity == DIAG_ERROR ? stderr : stdout;
    fflush(f == stderr ? stdout : stderr);
    fwrite(b.p, 1, b.len, f);
    fflush(f);
  }
  arena_rewind(cli->arena, m);
}

void cli_diags_compact(Cli *cli, const Diags *d)
{
  if (!d->head)
    return;
  if (diag_has_errors(d)) {
    cli_diags(cli, d);
    return;
  }
  ArenaMark m = arena_mark(cli->arena);
  int n = 0;
  for (const Diag *g = d->head; g; g = g->next)
    n++;
  /* more[i]: how many later warnings fold into warning i; -1 when i
  ** itself was folded into an earlier one.  Quadratic in the number of
  ** distinct summaries only, which stays small. */
  const Diag **lead = ARENA_NEW(cli->arena, const Diag *, (size_t)n);
  int *more = ARENA_NEW(cli->arena, int, (size_t)n);
  int nlead = 0;
  for (const Diag *g = d->head; g; g = g->next) {
    int j = -1;
    if (g->subject.file)
      for (int k = 0; k < nlead; k++)
        if (lead[k]->subject.file && strcmp(lead[k]->summary,
                                            g->summary) == 0) {
          j = k;
          break;
        }
    if (j >= 0) {
      more[j]++;
      continue;
    }
    lead[nlead++] = g;
  }
  Buf b;
  buf_init(&b, cli->arena);
  buf_printf(&b, "\n%sWarnings:%s\n\n", cli->color ? "\x1b[1m\x1b[33m" : "",
             cli->color ? "\x1b[0m" : "");
  for (int k = 0; k < nlead; k++) {
    const Diag *g = lead[k];
    buf_printf(&b, "- %s\n", g->summary);
    if (!g->subject.file)
      continue;
    buf_printf(&b, "  on %s line %u", g->subject.file,
               (unsigned)g->subject.start.line);
    if (more[k])
      buf_printf(&b, " (and %d more)", more[k]);
    buf_putc(&b, '\n');
  }
  buf_puts(&b, "\nTo see the full warning notes, run cairn without "
               "-compact-warnings.\n");
  fflush(stderr);
  fwrite(b.p, 1, b.len, stdout);   /* warnings go to stdout (Terraform) */
  fflush(stdout);
  arena_rewind(cli->arena, m);
}

int cli_levenshtein(const char *a, const char *b)
{
  size_t la = strlen(a), lb = strlen(b);
  if (la > 64 || lb > 64)
    return 99;
  int row[65];
  for (size_t j = 0; j <= lb; j++)
    row[j] = (int)j;
  for (size_t i = 1; i <= la; i++) {
    int prev = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= lb; j++) {
      int cur = row[j];
      int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      int v = prev + cost;
      if (row[j] + 1 < v)
        v = row[j] + 1;
      if (row[j - 1] + 1 < v)
        v = row[j - 1] + 1;
      row[j] = v;
      prev = cur;
    }
  }
  return row[lb];
}

const char *cli_suggest(const char *given, const char *const *names, int n)
{
  const char *best = NULL;
  int bestd = 3;
  for (int i = 0; i < n; i++) {
    int dist = cli_levenshtein(given, names[i]);
    if (dist < bestd) {
      bestd = dist;
      best = names[i];
    }
  }
  return best;
}
