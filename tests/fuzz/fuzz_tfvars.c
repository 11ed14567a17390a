/*
** fuzz_tfvars: the .tfvars reader as `plan` runs it: vars_collect (core/
** engine/vars.h) over a root module that declares variables of every
** kind of type (with optional attributes, a validation rule, a sensitive
** and a non-nullable one), with the input as the directory's
** terraform.tfvars, or terraform.tfvars.json when it starts with '{' (so
** both syntaxes, their conversion to the declared types and the
** validation are reached).  The module is loaded once; each input gets a
** fresh arena and file table.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "config/config.h"
#include "engine/vars.h"

#include "fuzz.h"

static const char *const variables_tf =
    "variable \"s\" {\n  type = string\n  default = \"x\"\n"
    "  validation {\n    condition = length(var.s) < 100\n"
    "    error_message = \"Too long.\"\n  }\n}\n"
    "variable \"n\" {\n  type = number\n  default = 1\n}\n"
    "variable \"b\" {\n  type = bool\n  default = false\n}\n"
    "variable \"l\" {\n  type = list(string)\n  default = []\n}\n"
    "variable \"m\" {\n  type = map(number)\n  default = {}\n}\n"
    "variable \"st\" {\n  type = set(string)\n  default = []\n}\n"
    "variable \"t\" {\n  type = tuple([string, number, bool])\n"
    "  default = [\"a\", 1, true]\n}\n"
    "variable \"o\" {\n  type = object({\n    a = string\n"
    "    b = optional(list(number), [1])\n"
    "    c = optional(object({ d = optional(string) }))\n  })\n"
    "  default = { a = \"x\" }\n}\n"
    "variable \"any\" {\n  type = any\n  default = null\n}\n"
    "variable \"untyped\" {\n  default = \"u\"\n}\n"
    "variable \"secret\" {\n  type = string\n  sensitive = true\n"
    "  default = \"hush\"\n}\n"
    "variable \"nn\" {\n  type = string\n  nullable = false\n"
    "  default = \"v\"\n}\n";

static char dir[64];
static char tfvars[128], tfvars_json[128], main_tf[128];
static Arena cfg_arena;
static CfgModule *root;

static void cleanup(void)
{
  unlink(tfvars);
  unlink(tfvars_json);
  unlink(main_tf);
  rmdir(dir);
}

static bool write_file(const char *path, const void *p, size_t n)
{
  FILE *fp = fopen(path, "wb");
  if (!fp)
    return false;
  bool ok = fwrite(p, 1, n, fp) == n;
  return fclose(fp) == 0 && ok;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  snprintf(dir, sizeof dir, "/tmp/cairn-fuzz-tfvars-XXXXXX");
  if (!mkdtemp(dir)) {
    perror("fuzz_tfvars: mkdtemp");
    exit(1);
  }
  snprintf(tfvars, sizeof tfvars, "%s/terraform.tfvars", dir);
  snprintf(tfvars_json, sizeof tfvars_json, "%s/terraform.tfvars.json", dir);
  snprintf(main_tf, sizeof main_tf, "%s/variables.tf", dir);
  atexit(cleanup);
  if (!write_file(main_tf, variables_tf, strlen(variables_tf))) {
    perror("fuzz_tfvars: variables.tf");
    exit(1);
  }
  arena_init(&cfg_arena, 0);
  Diags d;
  diag_init(&d, &cfg_arena);
  SrcFiles fs;
  diag_files_init(&fs, &cfg_arena);
  root = cfg_load_dir(&cfg_arena, dir, &fs, &d);
  if (!root || diag_has_errors(&d)) {
    fprintf(stderr, "fuzz_tfvars: the fixed module does not load: %s\n",
            d.head ? d.head->summary : "?");
    exit(1);
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  size_t i = 0;
  while (i < size && (data[i] == ' ' || data[i] == '\n' || data[i] == '\t'))
    i++;
  bool json = i < size && data[i] == '{';
  unlink(json ? tfvars : tfvars_json);
  if (!write_file(json ? tfvars_json : tfvars, data, size)) {
    perror("fuzz_tfvars: write");
    abort();
  }
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  SrcFiles fs;
  diag_files_init(&fs, &a);
  VarsInput in;
  memset(&in, 0, sizeof in);
  in.dir = dir;
  PlVariable *vars = NULL;
  uint32_t n = 0;
  vars_collect(&a, root, &in, &fs, &vars, &n, &d);
  arena_release(&a);
  return 0;
}
