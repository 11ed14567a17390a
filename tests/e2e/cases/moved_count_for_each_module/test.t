moved blocks inside a child module turn its count instances into for_each
keys while a moved block in the root renames the module call: the two
moves compose (module.old.terraform_data.t[0] becomes
module.new.terraform_data.t["a"]) and nothing else changes.

  $ cp -r v1 run && cd run && cairn apply -auto-approve > /dev/null; echo "exit $?"; cairn state list
  exit 0
  module.old.terraform_data.t[0]
  module.old.terraform_data.t[1]
  $ rm -r run/main.tf run/mod && cp -r v2/* run/ && cd run && cairn plan -out=p.bin
  module\.new\.terraform_data\.t\["a"\]: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  module\.new\.terraform_data\.t\["b"\]: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  
  cairn will perform the following actions:
  
    # module.old.terraform_data.t[0] has moved to module.new.terraform_data.t["a"]
      resource "terraform_data" "t" {
          id     = "[0-9a-f-]{36}" (re)
          # (2 unchanged attributes hidden)
      }
  
    # module.old.terraform_data.t[1] has moved to module.new.terraform_data.t["b"]
      resource "terraform_data" "t" {
          id     = "[0-9a-f-]{36}" (re)
          # (2 unchanged attributes hidden)
      }
  
  Plan: 0 to add, 0 to change, 0 to destroy.
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Saved the plan to: p.bin
  
  To perform exactly these actions, run the following command to apply:
      cairn apply "p.bin"
  $ cd run && cairn show -json p.bin | python3 ../pl.py
  module.new.terraform_data.t["a"] actions=no-op previous_address=module.old.terraform_data.t[0] same=True
  module.new.terraform_data.t["b"] actions=no-op previous_address=module.old.terraform_data.t[1] same=True
  $ cd run && cairn apply p.bin | grep -v '^$'; cairn state list
  Apply complete! Resources: 0 added, 0 changed, 0 destroyed.
  Outputs:
  inputs = [
    "x0",
    "x1",
  ]
  module.new.terraform_data.t["a"]
  module.new.terraform_data.t["b"]
  $ cd run && cairn plan -detailed-exitcode > /dev/null; echo "exit $?"
  exit 0
