plan -refresh-only after changes made outside: a.txt rewritten (the local
provider then reads the object as gone, since its id is the content's
checksum) and b.txt deleted.  The plan reports the drift and proposes no
action (Terraform records no resource change in this mode, so
resource_changes is empty); applying it writes the refreshed state and
leaves the files alone.

  $ cairn apply -auto-approve > /dev/null; echo "exit $?"
  exit 0
  $ echo changed > a.txt; rm b.txt
  $ cairn plan -refresh-only -parallelism=1 -out=p.bin | sed -E 's/(id|sha[0-9]*|md5|base64sha[0-9]*)( *)= "[^"]*"/\1\2= "…"/; s/\[id=[^]]*\]/[id=…]/'
  local_file.a: Refreshing state... [id=…]
  local_file.b: Refreshing state... [id=…]
  terraform_data.c: Refreshing state... [id=…]
  
  Note: Objects have changed outside of cairn
  
  cairn detected the following changes made outside of cairn since the last
  "cairn apply" which may have affected this plan:
  
    # local_file.a has been deleted
    - resource "local_file" "a" {
        - content              = "one" -> null
        - content_base64sha256 = "…" -> null
        - content_base64sha512 = "…" -> null
        - content_md5          = "…" -> null
        - content_sha1         = "…" -> null
        - content_sha256       = "…" -> null
        - content_sha512       = "…" -> null
        - directory_permission = "0777" -> null
        - file_permission      = "0777" -> null
        - filename             = "./a.txt" -> null
        - id                   = "…" -> null
      }
  
    # local_file.b has been deleted
    - resource "local_file" "b" {
        - content              = "two" -> null
        - content_base64sha256 = "…" -> null
        - content_base64sha512 = "…" -> null
        - content_md5          = "…" -> null
        - content_sha1         = "…" -> null
        - content_sha256       = "…" -> null
        - content_sha512       = "…" -> null
        - directory_permission = "0777" -> null
        - file_permission      = "0777" -> null
        - filename             = "./b.txt" -> null
        - id                   = "…" -> null
      }
  
  
  This is a refresh-only plan, so cairn will not take any actions to undo
  these. If you were expecting these changes then you can apply this plan to
  record the updated values in the cairn state without changing any remote
  objects.
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Saved the plan to: p.bin
  
  To perform exactly these actions, run the following command to apply:
      cairn apply "p.bin"
  $ cairn show -json p.bin | python3 pl.py
  applyable=True complete=True errored=False
  resource_drift:
    local_file.a actions=delete after=null
    local_file.b actions=delete after=null
  resource_changes: (none)
  prior_state: terraform_data.c
  $ cairn plan -refresh-only -detailed-exitcode > /dev/null; echo "exit $?"
  exit 2

apply -refresh-only: the objects are dropped from the state, the files
stay as they are.

  $ cairn apply -refresh-only -auto-approve | grep -E '^Apply|^  #'
    # local_file.a has been deleted
    # local_file.b has been deleted
  Apply complete! Resources: 0 added, 0 changed, 0 destroyed.
  $ cairn state list; cat a.txt; test -e b.txt || echo "no b.txt"
  terraform_data.c
  changed
  no b.txt
  $ cairn plan -refresh-only -no-color | grep -v Refreshing; cairn show -json | python3 -c 'import json,sys; print(sorted(r["address"] for r in json.load(sys.stdin)["values"]["root_module"]["resources"]))'
  
  No changes. Your infrastructure still matches the configuration.
  
  cairn has checked that the real remote objects still match the result of your
  most recent changes, and found no differences.
  ['terraform_data.c']
  $ cairn plan -no-color | grep -E '^  #|^Plan'
    # local_file.a will be created
    # local_file.b will be created
  Plan: 2 to add, 0 to change, 0 to destroy.

A refresh-only apply records the output values its plan showed; a null
value leaves the state (Terraform keeps no null outputs), so the next
refresh-only plan has nothing left to do.

  $ mkdir out && cd out && printf 'resource "local_file" "a" {\n  filename = "a.txt"\n  content  = "x"\n}\noutput "x" {\n  value = try(local_file.a.id, null)\n}\noutput "y" {\n  value = "static"\n}\n' > main.tf && cairn apply -auto-approve > /dev/null; echo "exit $?"
  exit 0
  $ cd out && rm a.txt && cairn plan -refresh-only -no-color | grep -A2 'Changes to Outputs'
  Changes to Outputs:
    - x = "11f6ad8ec52a2984abaafd7c3b516503785c2072" -> null
  
  $ cd out && cairn apply -refresh-only -auto-approve > /dev/null; cairn output -json
  {
    "y": {
      "sensitive": false,
      "type": "string",
      "value": "static"
    }
  }
  $ cd out && cairn plan -refresh-only -detailed-exitcode > /dev/null; echo "exit $?"
  exit 0
