Preconditions are checked again during apply, as Terraform's apply does:
one whose condition was unknown at plan time fails there, before the
provider is called, and what was applied before it stays in the state.

  $ cairn apply -auto-approve -no-color -target=terraform_data.b -target=terraform_data.a > out 2>&1; echo "exit $?"
  exit 1
  $ sed -n '/Error: Resource/,/^b id is not nope/p' out | sed 's/"[0-9a-f-]\{36\}"/"ID"/'
  Error: Resource precondition failed
  
    on main.tf line 16, in resource "terraform_data" "a":
    16:       condition     = terraform_data.b.id == "nope"
      ├─────────────────
      │ terraform_data.b.id is "ID"
  
  b id is not nope
  $ cairn state list
  terraform_data.b

A saved plan made with a good ephemeral token and applied with a bad one
fails the precondition at apply.

  $ cairn plan -target=terraform_data.t -var token=good -out=p > /dev/null 2>&1; echo "exit $?"
  exit 0
  $ cairn apply -no-color -var token=bad p > out 2>&1; echo "exit $?"
  exit 1
  $ sed -n '/Error: Resource/,/^bad token/p' out
  Error: Resource precondition failed
  
    on main.tf line 27, in resource "terraform_data" "t":
    27:       condition     = var.token == "good"
      ├─────────────────
      │ var.token is "bad"
  
  bad token
  $ cairn state list
  terraform_data.b
