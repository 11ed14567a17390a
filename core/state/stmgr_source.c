/*
** stmgr_source.c: giving back the bytes of the state file read at load
** (stmgr_drop_source, stmgr.h) for a command that will not commit, apart
** from stmgr.c to keep that file under the size limit (docs/STYLE.md).
*/
#include "stmgr.h"
#include "stmgr_priv.h"

void stmgr_drop_source(StMgr *m)
{
  /* Nothing else points into the bytes: st_read copies what the state
  ** keeps (state_read.c), and the journal is read apart. */
  if (m->disk_p == m->orig_src)
    m->disk_p = NULL;
  m->orig_src = NULL;
  m->orig_len = 0;
  m->src_dropped = true;
  arena_release(&m->sarena);
}

bool stmgr_refuse_commit(StMgr *m, Diags *d)
{
  /* Without what was on disk a commit could not tell whether the state
  ** changed nor write the backup: refusing beats a silent wrong write. */
  diag_error(d, NULL, "Internal error: state commit after its source was "
             "dropped", "cairn did not save the state %s: this command said "
             "it would not change it. Please report this.", m->out_path);
  return false;
}
