create_before_destroy with a create that fails.  Terraform deposes the
prior object before creating its replacement; when the create fails
without an object, the prior object is not destroyed (and Terraform
restores it as the current object: maybeRestoreDeposedObject); when the
create fails part way, the new object is current and tainted and the
prior one stays deposed, for the next plan to destroy.

A create that fails with no object (fail = true on a -replace):

  $ cd gone && cairn apply -auto-approve > /dev/null; echo "exit $?"; python3 ../st.py
  exit 0
  misbehave_ok.r current status=- cbd=True id=id1
  $ cd gone && cairn plan -replace=misbehave_ok.r -var fail=true -out=p.bin -no-color | sed -n '/^  #/,/^Plan/p'
    # misbehave_ok.r will be replaced, as requested
  +/- resource "misbehave_ok" "r" {
        ~ computed = "computed-value" -> (known after apply)
        ~ fail     = false -> true
        ~ id       = "[0-9a-f-]{36}" -> \(known after apply\) (re)
          # (1 unchanged attribute hidden)
      }
  
  Plan: 1 to add, 0 to change, 1 to destroy.
  $ cd gone && cairn show -json p.bin | python3 ../pl.py
  misbehave_ok.r actions=create,delete reason=replace_by_request deposed=-
  $ cd gone && cairn apply p.bin 2>&1 | grep -E '^misbehave|^Error'
  misbehave_ok.r: Creating...
  Error: Failed to apply
  misbehave: apply failed as requested (fail = true).
  $ cd gone && python3 ../st.py
  misbehave_ok.r current status=- cbd=True id=id1
  $ cd gone && cairn plan -detailed-exitcode > /dev/null; echo "exit $?"
  exit 0

A create that fails part way (misbehave_apply_partial always does): the
first apply leaves a tainted object; replacing it creates another tainted
object and keeps the first one deposed.

  $ cd partial && cairn apply -auto-approve 2>&1 | grep -E '^misbehave|^Error'; python3 ../st.py
  misbehave_apply_partial.p: Creating...
  Error: Partial failure
  misbehave: the object was created but configuring it failed.
  misbehave_apply_partial.p current status=tainted cbd=True id=id1
  $ cd partial && cairn plan -out=p.bin -no-color | sed -n '/^Resource actions/,/^Plan/p'
  Resource actions are indicated with the following symbols:
  +/- create replacement and then destroy
  
  cairn will perform the following actions:
  
    # misbehave_apply_partial.p is tainted, so must be replaced
  +/- resource "misbehave_apply_partial" "p" {
        ~ computed = "computed-value" -> (known after apply)
        ~ id       = "[0-9a-f-]{36}" -> \(known after apply\) (re)
        + value    = "p"
      }
  
  Plan: 1 to add, 0 to change, 1 to destroy.
  $ cd partial && cairn show -json p.bin | python3 ../pl.py
  misbehave_apply_partial.p actions=create,delete reason=replace_because_tainted deposed=-
  $ cd partial && cairn apply p.bin 2>&1 | grep -E '^misbehave|^Error'; python3 ../st.py
  misbehave_apply_partial.p: Creating...
  Error: Partial failure
  misbehave: the object was created but configuring it failed.
  misbehave_apply_partial.p current status=tainted cbd=True id=id2
  misbehave_apply_partial.p deposed status=tainted cbd=True id=id1
  $ cd partial && cairn plan -out=p2.bin -no-color | grep -E '^  #|^Plan' | sed -E 's/object [0-9a-f]{8}/object KEY/'
    # misbehave_apply_partial.p is tainted, so must be replaced
    # misbehave_apply_partial.p (deposed object KEY) will be destroyed
    # (left over from a partially-failed replacement of this instance)
  Plan: 1 to add, 0 to change, 2 to destroy.
  $ cd partial && cairn show -json p2.bin | python3 ../pl.py
  misbehave_apply_partial.p actions=create,delete reason=replace_because_tainted deposed=-
  misbehave_apply_partial.p actions=delete reason=- deposed=yes
