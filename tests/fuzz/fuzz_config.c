/*
** fuzz_config: decoding a module's top-level blocks (cfg_load_dir) with
** the input as the directory's main.tf, or main.tf.json when it starts
** with '{'.  Written for Terraform 1.14's action blocks and lifecycle
** action_trigger blocks (core/config/config_action.c), whose references
** and event keywords are read statically; every other block kind is
** reached as well.  Each input gets a fresh arena and file table.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "config/config.h"

#include "fuzz.h"

static char dir[64];
static char tf[128], tf_json[128];

static void cleanup(void)
{
  unlink(tf);
  unlink(tf_json);
  rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  snprintf(dir, sizeof dir, "/tmp/cairn-fuzz-config-XXXXXX");
  if (!mkdtemp(dir)) {
    perror("fuzz_config: mkdtemp");
    exit(1);
  }
  snprintf(tf, sizeof tf, "%s/main.tf", dir);
  snprintf(tf_json, sizeof tf_json, "%s/main.tf.json", dir);
  atexit(cleanup);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  bool json = size && data[0] == '{';
  const char *path = json ? tf_json : tf;
  unlink(json ? tf : tf_json);
  FILE *fp = fopen(path, "wb");
  if (!fp)
    return 0;
  fwrite(data, 1, size, fp);
  fclose(fp);
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  SrcFiles fs;
  diag_files_init(&fs, &a);
  CfgModule *m = cfg_load_dir(&a, dir, &fs, &d);
  /* what the engine reads of the decoded actions */
  for (uint32_t i = 0; m && i < m->nresources; i++)
    for (uint32_t k = 0; k < m->resources[i].naction_triggers; k++) {
      const CfgActionTrigger *t = &m->resources[i].action_triggers[k];
      for (uint32_t j = 0; j < t->nactions; j++)
        cfg_action(m, t->actions[j].type, t->actions[j].name);
    }
  for (uint32_t i = 0; m && i < m->nactions; i++)
    cfg_action_provider_name(&m->actions[i]);
  arena_release(&a);
  return 0;
}
