/*
** cmd_fmt.c: `cairn fmt [-list=false] [-write=false] [-diff] [-check]
** [-recursive] [TARGET...]` with Terraform's behaviour: files that do not
** parse are reported and left alone (exit 2), -check exits 3 when a file
** would change, `-` formats stdin to stdout, -diff prints what `diff -u`
** prints for Terraform (fmt_unified_diff).  See docs/fmt.md.
*/
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "lang/fmt.h"
#include "lang/hcl.h"

typedef struct FmtRun {
  Cli *cli;
  bool list, write, diff, check, recursive;
  bool changed;
  Buf listed;          /* -check collects the list here */
  Diags d;
} FmtRun;

static bool has_ext(const char *name)
{
  static const char *const exts[] = {".tf", ".tfvars", ".tftest.hcl",
                                     ".tfmock.hcl"};
  size_t n = strlen(name);
  for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
    size_t e = strlen(exts[i]);
    if (n >= e && strcmp(name + n - e, exts[i]) == 0)
      return true;
  }
  return false;
}

/* Source files and stdin are read to end of file, at most 64 MiB (what
** the configuration loader reads). */
static bool read_fd(int fd, Buf *b)
{
  return buf_read_fd(b, fd, (size_t)64 << 20) == 0;
}

static void process(FmtRun *r, const char *path, int fd, bool stdio)
{
  Cli *cli = r->cli;
  Arena *a = cli->arena;
  Buf src;
  buf_init(&src, a);
  if (!read_fd(fd, &src)) {
    diag_error(&r->d, NULL, arena_printf(a, "Failed to read %s", path),
               NULL);
    return;
  }
  const char *text = src.p ? src.p : "";
  diag_files_add(&cli->files, path, text, (uint32_t)src.len);
  Diags pd;
  diag_init(&pd, a);
  (void)hcl_parse_file(a, path, text, src.len, &pd);
  Buf out;
  buf_init(&out, a);
  if (diag_has_errors(&pd) || !fmt_source(a, path, text, src.len, &out,
                                          &pd)) {
    diag_move(&r->d, &pd);
    return;
  }
  const char *res = out.p ? out.p : "";
  bool changed = out.len != src.len || memcmp(res, text, src.len) != 0;
  if (changed) {
    r->changed = true;
    if (r->list) {
      if (r->check) {
        buf_puts(&r->listed, path);
        buf_putc(&r->listed, '\n');
      } else {
        cli_out(cli, "%s\n", path);
      }
    }
    if (r->write) {
      int w = open(path, O_WRONLY | O_TRUNC);
      if (w < 0 || write(w, res, out.len) != (ssize_t)out.len) {
        diag_error(&r->d, NULL, arena_printf(a, "Failed to write %s", path),
                   NULL);
      }
      if (w >= 0)
        close(w);
    }
    if (r->diff) {
      Buf db;
      buf_init(&db, a);
      fmt_unified_diff(a, &db, arena_printf(a, "old/%s", path),
                       arena_printf(a, "new/%s", path), text, src.len, res,
                       out.len);
      cli_out_buf(cli, &db);
    }
  }
  if (stdio && !r->list && !r->write && !r->diff)
    cli_out_buf(cli, &out);
}

static void process_dir(FmtRun *r, const char *dir)
{
  Arena *a = r->cli->arena;
  DIR *d = opendir(dir);
  if (!d) {
    diag_error(&r->d, NULL,
               arena_printf(a, "There is no configuration directory at %s",
                            dir), NULL);
    return;
  }
  const char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    const char *nm = de->d_name;
    /* Terraform's ignored files: hidden, editor backups and swap files. */
    size_t l = strlen(nm);
    if (nm[0] == '.' || nm[0] == '#' || (l > 0 && nm[l - 1] == '~'))
      continue;
    if (n == cap) {
      size_t nc = cap ? cap * 2 : 32;
      names = arena_grow(a, names, sizeof *names, _Alignof(const char *),
                         cap, nc);
      cap = nc;
    }
    names[n++] = arena_strdup(a, nm);
  }
  closedir(d);
  /* os.ReadDir returns names sorted. */
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
      const char *t = names[j];
      names[j] = names[j - 1];
      names[j - 1] = t;
    }
  for (size_t i = 0; i < n; i++) {
    const char *sub = strcmp(dir, ".") == 0
                          ? names[i]
                          : arena_printf(a, "%s/%s", dir, names[i]);
    struct stat st;
    if (stat(sub, &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode)) {
      if (r->recursive)
        process_dir(r, sub);
      continue;
    }
    if (!has_ext(names[i]))
      continue;
    int fd = open(sub, O_RDONLY);
    if (fd < 0) {
      diag_error(&r->d, NULL, arena_printf(a, "Failed to read file %s", sub),
                 NULL);
      continue;
    }
    process(r, sub, fd, false);
    close(fd);
  }
}

static int run(Cli *cli, int argc, char **argv)
{
  FmtRun r = {0};
  r.cli = cli;
  r.list = r.write = true;
  bool no_color = false;
  CliFlag flags[] = {{"list", FLAG_BOOL, &r.list},
                     {"write", FLAG_BOOL, &r.write},
                     {"diff", FLAG_BOOL, &r.diff},
                     {"check", FLAG_BOOL, &r.check},
                     {"recursive", FLAG_BOOL, &r.recursive},
                     {"no-color", FLAG_BOOL, &no_color}};
  diag_init(&r.d, cli->arena);
  buf_init(&r.listed, cli->arena);
  int rest;
  if (!cli_parse_flags(cli, argc, argv, flags, 6, &rest, &r.d)) {
    cli_diags(cli, &r.d);
    return 1;
  }
  bool show_list = r.list;
  if (r.check) {
    r.list = true;
    r.write = false;
  }
  if (rest < argc && strcmp(argv[rest], "-") == 0) {
    r.list = false;
    r.write = false;
    process(&r, "<stdin>", 0, true);
  } else if (rest >= argc) {
    process_dir(&r, ".");
  } else {
    for (int i = rest; i < argc; i++) {
      struct stat st;
      const char *p = argv[i];
      if (stat(p, &st) != 0) {
        diag_error(&r.d, NULL,
                   arena_printf(cli->arena, "No file or directory at %s", p),
                   NULL);
        break;
      }
      if (S_ISDIR(st.st_mode)) {
        process_dir(&r, p);
      } else if (has_ext(p)) {
        int fd = open(p, O_RDONLY);
        if (fd < 0) {
          diag_error(&r.d, NULL,
                     arena_printf(cli->arena, "Failed to read file %s", p),
                     NULL);
          continue;
        }
        process(&r, p, fd, false);
        close(fd);
      } else {
        diag_error(&r.d, NULL,
                   "Only .tf, .tfvars, and .tftest.hcl files can be "
                   "processed with terraform fmt", NULL);
      }
    }
  }
  cli_diags(cli, &r.d);
  if (diag_has_errors(&r.d))
    return 2;
  if (r.check) {
    if (show_list)
      cli_out_buf(cli, &r.listed);
    return r.changed ? 3 : 0;
  }
  return 0;
}

const CmdEntry cmd_fmt = {
    "fmt",
    "Reformat your configuration in the standard style",
    "Usage: cairn [global options] fmt [options] [target...]\n"
    "\n"
    "  Rewrites all Terraform configuration files to a canonical format. All\n"
    "  configuration files (.tf), variables files (.tfvars), and testing files\n"
    "  (.tftest.hcl) are updated. JSON files (.tf.json, .tfvars.json, or\n"
    "  .tftest.json) are not modified.\n"
    "\n"
    "Options:\n"
    "\n"
    "  -list=false    Don't list files whose formatting differs\n"
    "                 (always disabled if using STDIN)\n"
    "\n"
    "  -write=false   Don't write to source files\n"
    "                 (always disabled if using STDIN or -check)\n"
    "\n"
    "  -diff          Display diffs of formatting changes\n"
    "\n"
    "  -check         Check if the input is formatted. Exit status will be 0 "
    "if all\n"
    "                 input is properly formatted and non-zero otherwise.\n"
    "\n"
    "  -no-color      If specified, output won't contain any color.\n"
    "\n"
    "  -recursive     Also process files in subdirectories. By default, only "
    "the\n"
    "                 given directory (or current directory) is processed.\n",
    run,
    false};
