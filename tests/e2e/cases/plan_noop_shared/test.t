A no-change plan keeps one object per unchanged instance (the prior's,
shared as the change's before and after): what it prints, what a saved
plan holds (numbers as written, sensitive values) and what applying it
does are the same as when each instance kept its own copies; a changed
instance beside unchanged ones plans as usual.

  $ cairn apply -auto-approve > /dev/null
  $ cairn plan -parallelism=1
  terraform_data\.n\[0\]: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  terraform_data\.n\[1\]: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  terraform_data\.n\[2\]: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  terraform_data\.s: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  terraform_data\.d\[0\]: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  terraform_data\.d\[1\]: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  
  No changes. Your infrastructure matches the configuration.
  
  cairn has compared your real infrastructure against your configuration and
  found no differences, so no changes are needed.
  $ cairn plan -detailed-exitcode > /dev/null
  $ cairn plan -out=p.plan > /dev/null
  $ cairn show -json p.plan | python3 -c '
  > import json, sys
  > p = json.load(sys.stdin)
  > for rc in p["resource_changes"]:
  >     c = rc["change"]
  >     print(rc["address"], c["actions"], c["before"] == c["after"],
  >           json.dumps(c["before_sensitive"]), json.dumps(c["after_sensitive"]))
  > print(json.dumps(p["resource_changes"][2]["change"]["after"]["input"], sort_keys=True))
  > print(json.dumps(p["output_changes"], sort_keys=True))'
  terraform_data.d[0] ['no-op'] True {"input": {}, "output": {}, "triggers_replace": [false]} {"input": {}, "output": {}, "triggers_replace": [false]}
  terraform_data.d[1] ['no-op'] True {"input": {}, "output": {}, "triggers_replace": [false]} {"input": {}, "output": {}, "triggers_replace": [false]}
  terraform_data.n[0] ['no-op'] True {"input": {}, "output": {}} {"input": {}, "output": {}}
  terraform_data.n[1] ['no-op'] True {"input": {}, "output": {}} {"input": {}, "output": {}}
  terraform_data.n[2] ['no-op'] True {"input": {}, "output": {}} {"input": {}, "output": {}}
  terraform_data.s ['no-op'] True {"input": true} {"input": true}
  {"i": 0, "name": "n-0", "ratio": 1.5}
  {"o": {"actions": ["no-op"], "after": {"i": 1, "name": "n-1", "ratio": 1.5}, "after_sensitive": false, "after_unknown": false, "before": {"i": 1, "name": "n-1", "ratio": 1.5}, "before_sensitive": false}, "s": {"actions": ["no-op"], "after": "s3cret", "after_sensitive": true, "after_unknown": false, "before": "s3cret", "before_sensitive": true}}
  $ cairn apply p.plan
  
  Apply complete! Resources: 0 added, 0 changed, 0 destroyed.
  
  Outputs:
  
  o = {
    "i" = 1
    "name" = "n-1"
    "ratio" = 1.5
  }
  s = <sensitive>
  $ sed 's/ratio = 1.50/ratio = 2.50/' main.tf > main.tf.new && mv main.tf.new main.tf
  $ cairn plan -parallelism=1 | grep -v Refreshing
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    ~ update in-place
  
  cairn will perform the following actions:
  
    # terraform_data.d[0] will be updated in-place
    ~ resource "terraform_data" "d" {
          id               = "[0-9a-f-]{36}" (re)
        ~ input            = {
            - i     = 0
            - name  = "n-0"
            - ratio = 1.5
          } -> (known after apply)
        ~ output           = {
            - i     = 0
            - name  = "n-0"
            - ratio = 1.5
          } -> (known after apply)
          # (1 unchanged attribute hidden)
      }
  
    # terraform_data.d[1] will be updated in-place
    ~ resource "terraform_data" "d" {
          id               = "[0-9a-f-]{36}" (re)
        ~ input            = {
            - i     = 1
            - name  = "n-1"
            - ratio = 1.5
          } -> (known after apply)
        ~ output           = {
            - i     = 1
            - name  = "n-1"
            - ratio = 1.5
          } -> (known after apply)
          # (1 unchanged attribute hidden)
      }
  
    # terraform_data.n[0] will be updated in-place
    ~ resource "terraform_data" "n" {
          id     = "[0-9a-f-]{36}" (re)
        ~ input  = {
              name  = "n-0"
            ~ ratio = 1.5 -> 2.5
              # (1 unchanged attribute hidden)
          }
        ~ output = {
            - i     = 0
            - name  = "n-0"
            - ratio = 1.5
          } -> (known after apply)
      }
  
    # terraform_data.n[1] will be updated in-place
    ~ resource "terraform_data" "n" {
          id     = "[0-9a-f-]{36}" (re)
        ~ input  = {
              name  = "n-1"
            ~ ratio = 1.5 -> 2.5
              # (1 unchanged attribute hidden)
          }
        ~ output = {
            - i     = 1
            - name  = "n-1"
            - ratio = 1.5
          } -> (known after apply)
      }
  
    # terraform_data.n[2] will be updated in-place
    ~ resource "terraform_data" "n" {
          id     = "[0-9a-f-]{36}" (re)
        ~ input  = {
              name  = "n-2"
            ~ ratio = 1.5 -> 2.5
              # (1 unchanged attribute hidden)
          }
        ~ output = {
            - i     = 2
            - name  = "n-2"
            - ratio = 1.5
          } -> (known after apply)
      }
  
  Plan: 0 to add, 5 to change, 0 to destroy.
  
  Changes to Outputs:
    ~ o = {
        - i     = 1
        - name  = "n-1"
        - ratio = 1.5
      } -> (known after apply)
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Note: You didn't use the -out option to save this plan, so cairn can't
  guarantee to take exactly these actions if you run "cairn apply" now.
