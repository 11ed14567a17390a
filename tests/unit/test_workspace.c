/*
** test_workspace.c: workspace names, paths, listing, selection, deletion
** in a scratch directory.
*/
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "state/workspace.h"
#include "t.h"

static char root[64];

static void write_file(const char *path, const char *text)
{
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  T_CHECK(fd >= 0);
  if (fd < 0)
    return;
  T_EQ_INT(write(fd, text, strlen(text)), (long long)strlen(text));
  close(fd);
}

static void test_valid_names(void)
{
  T_CHECK(ws_valid_name("default"));
  T_CHECK(ws_valid_name("prod-1_x.y~z"));
  T_CHECK(ws_valid_name("a$b&c+d:e=f@g"));
  T_CHECK(!ws_valid_name(""));
  T_CHECK(!ws_valid_name(NULL));
  T_CHECK(!ws_valid_name("a/b"));
  T_CHECK(!ws_valid_name("a b"));
  T_CHECK(!ws_valid_name("a?b"));
  T_CHECK(!ws_valid_name("a;b"));
  /* Terraform's rule takes "." and ".."; the local backend does not. */
  T_CHECK(ws_valid_name(".."));
  T_CHECK(ws_valid_name("..."));
  T_CHECK(!ws_valid_name("a,b"));
  T_CHECK(!ws_valid_name("a%b"));
  T_CHECK(!ws_valid_name("caf\xc3\xa9"));
}

static void test_paths(void)
{
  Arena a;
  arena_init(&a, 0);
  T_EQ_STR(ws_state_path(&a, NULL, "default"), "terraform.tfstate");
  T_EQ_STR(ws_state_path(&a, ".", "dev"),
           "terraform.tfstate.d/dev/terraform.tfstate");
  T_EQ_STR(ws_state_path(&a, "/x/y/", "dev"),
           "/x/y/terraform.tfstate.d/dev/terraform.tfstate");
  T_EQ_STR(ws_state_path(&a, "/x", "default"), "/x/terraform.tfstate");
  unsetenv("TF_DATA_DIR");
  T_EQ_STR(ws_data_dir(&a, "d"), "d/.terraform");
  setenv("TF_DATA_DIR", "/abs/data", 1);
  T_EQ_STR(ws_data_dir(&a, "d"), "/abs/data");
  setenv("TF_DATA_DIR", "rel", 1);
  T_EQ_STR(ws_data_dir(&a, "d"), "d/rel");
  unsetenv("TF_DATA_DIR");
  arena_release(&a);
}

static void test_current_and_select(void)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  unsetenv("TF_WORKSPACE");
  T_EQ_STR(ws_current(&a, root, &d), "default");
  T_CHECK(ws_select(&a, root, "dev", &d));
  T_EQ_STR(ws_current(&a, root, &d), "dev");
  /* Terraform trims whitespace around the recorded name. */
  write_file(arena_printf(&a, "%s/.terraform/environment", root),
             "  stage \n");
  T_EQ_STR(ws_current(&a, root, &d), "stage");
  write_file(arena_printf(&a, "%s/.terraform/environment", root), "\n");
  T_EQ_STR(ws_current(&a, root, &d), "default");
  setenv("TF_WORKSPACE", "over", 1);
  T_EQ_STR(ws_current(&a, root, &d), "over");
  T_EQ_STR(ws_override(), "over");
  setenv("TF_WORKSPACE", "bad/name", 1);
  T_CHECK(ws_current(&a, root, &d) == NULL);
  T_EQ_INT(d.errors, 1);
  T_EQ_STR(d.head->summary, "Invalid workspace name set using TF_WORKSPACE");
  setenv("TF_WORKSPACE", "", 1);
  T_CHECK(ws_override() == NULL);
  T_EQ_STR(ws_current(&a, root, &d), "default");
  unsetenv("TF_WORKSPACE");
  T_CHECK(ws_select(&a, root, "default", &d));
  arena_release(&a);
}

static void test_list_create_delete(void)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  const char **names;
  int n;
  T_CHECK(ws_list(&a, root, &names, &n, &d));
  T_EQ_INT(n, 1);
  T_EQ_STR(names[0], "default");
  T_CHECK(ws_create(&a, root, "zeta", &d));
  T_CHECK(ws_create(&a, root, "alpha", &d));
  T_CHECK(ws_create(&a, root, "alpha", &d)); /* idempotent */
  T_CHECK(!ws_create(&a, root, "../evil", &d));
  /* A stray file under terraform.tfstate.d is not a workspace. */
  write_file(arena_printf(&a, "%s/terraform.tfstate.d/file", root), "x");
  T_CHECK(ws_list(&a, root, &names, &n, &d));
  T_EQ_INT(n, 3);
  T_EQ_STR(names[0], "default");
  T_EQ_STR(names[1], "alpha");
  T_EQ_STR(names[2], "zeta");
  T_CHECK(ws_exists(&a, root, "alpha"));
  T_CHECK(ws_exists(&a, root, "default"));
  T_CHECK(!ws_exists(&a, root, "nope"));
  T_CHECK(!ws_exists(&a, root, "file"));

  /* Deleting removes nested content but never follows a symlink. */
  const char *z = ws_dir_path(&a, root, "zeta");
  write_file(ws_state_path(&a, root, "zeta"), "{}");
  T_EQ_INT(mkdir(arena_printf(&a, "%s/sub", z), 0755), 0);
  write_file(arena_printf(&a, "%s/sub/f", z), "y");
  const char *keep = arena_printf(&a, "%s/keep", root);
  T_EQ_INT(mkdir(keep, 0755), 0);
  write_file(arena_printf(&a, "%s/precious", keep), "p");
  T_EQ_INT(symlink(keep, arena_printf(&a, "%s/link", z)), 0);
  T_CHECK(ws_delete(&a, root, "zeta", &d));
  T_CHECK(!ws_exists(&a, root, "zeta"));
  T_CHECK(access(arena_printf(&a, "%s/precious", keep), F_OK) == 0);
  T_EQ_INT(d.errors, 1); /* only the ../evil create */

  T_CHECK(!ws_delete(&a, root, "default", &d));
  T_EQ_INT(d.errors, 2);
  T_CHECK(ws_delete(&a, root, "missing", &d));

  /* "." and ".." would be terraform.tfstate.d and the directory holding
  ** the default state: the local backend never takes them. */
  T_CHECK(!ws_create(&a, root, "..", &d));
  T_CHECK(!ws_create(&a, root, ".", &d));
  T_CHECK(!ws_exists(&a, root, ".."));
  T_CHECK(!ws_exists(&a, root, "."));
  T_CHECK(!ws_delete(&a, root, "..", &d));
  T_EQ_INT(d.errors, 5);
  T_CHECK(access(arena_printf(&a, "%s/terraform.tfstate.d", root), F_OK) == 0);
  arena_release(&a);
}

int main(void)
{
  snprintf(root, sizeof root, "/tmp/cairn-ws-XXXXXX");
  if (!mkdtemp(root)) {
    perror("mkdtemp");
    return 1;
  }
  T_RUN(test_valid_names);
  T_RUN(test_paths);
  T_RUN(test_current_and_select);
  T_RUN(test_list_create_delete);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  if (system(cmd) != 0)
    fprintf(stderr, "could not remove %s\n", root);
  return t_done("workspace");
}
