Each planned action and each delete reason, then applying them.

  $ cp v1/main.tf main.tf
  $ cairn apply -auto-approve -no-color > /dev/null; echo $?
  0
  $ cairn state list
  null_resource.cnt[0]
  null_resource.cnt[1]
  null_resource.cnt[2]
  null_resource.each["a"]
  null_resource.each["b"]
  null_resource.each["c"]
  null_resource.gone
  null_resource.sw[0]
  terraform_data.rep
  terraform_data.upd
  $ cp v2/main.tf main.tf
  $ cairn plan -refresh=false -detailed-exitcode
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
    ~ update in-place
    - destroy
  -/+ destroy and then create replacement
  
  cairn will perform the following actions:
  
    # null_resource.cnt[1] will be destroyed
    # (because index [1] is out of range for count)
    - resource "null_resource" "cnt" {
        - id       = "\d+" -> null (re)
        - triggers = {
            - "i" = "1"
          } -> null
      }
  
    # null_resource.cnt[2] will be destroyed
    # (because index [2] is out of range for count)
    - resource "null_resource" "cnt" {
        - id       = "\d+" -> null (re)
        - triggers = {
            - "i" = "2"
          } -> null
      }
  
    # null_resource.each["b"] will be destroyed
    # (because key ["b"] is not in for_each map)
    - resource "null_resource" "each" {
        - id       = "\d+" -> null (re)
        - triggers = {
            - "k" = "b"
          } -> null
      }
  
    # null_resource.gone will be destroyed
    # (because null_resource.gone is not in configuration)
    - resource "null_resource" "gone" {
        - id = "\d+" -> null (re)
      }
  
    # null_resource.sw[0] will be destroyed
    # (because resource does not use count)
    - resource "null_resource" "sw" {
        - id = "\d+" -> null (re)
      }
  
    # null_resource.sw["x"] will be created
    + resource "null_resource" "sw" {
        + id = (known after apply)
      }
  
    # terraform_data.rep must be replaced
  -/+ resource "terraform_data" "rep" {
        ~ id               = "[0-9a-f-]{36}" -> \(known after apply\) (re)
        ~ output           = "fixed" -> (known after apply)
        ~ triggers_replace = [
            - "one",
            + "two",
          ]
          # (1 unchanged attribute hidden)
      }
  
    # terraform_data.upd will be updated in-place
    ~ resource "terraform_data" "upd" {
          id     = "[0-9a-f-]{36}" (re)
        ~ input  = "one" -> "two"
        ~ output = "one" -> (known after apply)
      }
  
  Plan: 2 to add, 1 to change, 6 to destroy.
  
  Changes to Outputs:
    ~ upd = "one" -> (known after apply)
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Note: You didn't use the -out option to save this plan, so cairn can't
  guarantee to take exactly these actions if you run "cairn apply" now.
  [2]
  $ cairn apply -auto-approve -refresh=false
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
    ~ update in-place
    - destroy
  -/+ destroy and then create replacement
  
  cairn will perform the following actions:
  
    # null_resource.cnt[1] will be destroyed
    # (because index [1] is out of range for count)
    - resource "null_resource" "cnt" {
        - id       = "\d+" -> null (re)
        - triggers = {
            - "i" = "1"
          } -> null
      }
  
    # null_resource.cnt[2] will be destroyed
    # (because index [2] is out of range for count)
    - resource "null_resource" "cnt" {
        - id       = "\d+" -> null (re)
        - triggers = {
            - "i" = "2"
          } -> null
      }
  
    # null_resource.each["b"] will be destroyed
    # (because key ["b"] is not in for_each map)
    - resource "null_resource" "each" {
        - id       = "\d+" -> null (re)
        - triggers = {
            - "k" = "b"
          } -> null
      }
  
    # null_resource.gone will be destroyed
    # (because null_resource.gone is not in configuration)
    - resource "null_resource" "gone" {
        - id = "\d+" -> null (re)
      }
  
    # null_resource.sw[0] will be destroyed
    # (because resource does not use count)
    - resource "null_resource" "sw" {
        - id = "\d+" -> null (re)
      }
  
    # null_resource.sw["x"] will be created
    + resource "null_resource" "sw" {
        + id = (known after apply)
      }
  
    # terraform_data.rep must be replaced
  -/+ resource "terraform_data" "rep" {
        ~ id               = "[0-9a-f-]{36}" -> \(known after apply\) (re)
        ~ output           = "fixed" -> (known after apply)
        ~ triggers_replace = [
            - "one",
            + "two",
          ]
          # (1 unchanged attribute hidden)
      }
  
    # terraform_data.upd will be updated in-place
    ~ resource "terraform_data" "upd" {
          id     = "[0-9a-f-]{36}" (re)
        ~ input  = "one" -> "two"
        ~ output = "one" -> (known after apply)
      }
  
  Plan: 2 to add, 1 to change, 6 to destroy.
  
  Changes to Outputs:
    ~ upd = "one" -> (known after apply)
  terraform_data\.upd: Modifying\.\.\. \[id=[0-9a-f-]{36}\] (re)
  terraform_data\.upd: Modifications complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  terraform_data\.rep: Destroying\.\.\. \[id=[0-9a-f-]{36}\] (re)
  terraform_data.rep: Destruction complete after 0s
  null_resource\.gone: Destroying\.\.\. \[id=\d+\] (re)
  null_resource.gone: Destruction complete after 0s
  null_resource\.cnt\[1\]: Destroying\.\.\. \[id=\d+\] (re)
  null_resource.cnt[1]: Destruction complete after 0s
  null_resource\.cnt\[2\]: Destroying\.\.\. \[id=\d+\] (re)
  null_resource.cnt[2]: Destruction complete after 0s
  null_resource\.each\["b"\]: Destroying\.\.\. \[id=\d+\] (re)
  null_resource.each["b"]: Destruction complete after 0s
  null_resource\.sw\[0\]: Destroying\.\.\. \[id=\d+\] (re)
  null_resource.sw[0]: Destruction complete after 0s
  terraform_data.rep: Creating...
  terraform_data\.rep: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  null_resource.sw["x"]: Creating...
  null_resource\.sw\["x"\]: Creation complete after \d+s \[id=\d+\] (re)
  
  Apply complete! Resources: 2 added, 1 changed, 6 destroyed.
  
  Outputs:
  
  upd = "two"
  $ cairn state list
  null_resource.cnt[0]
  null_resource.each["a"]
  null_resource.each["c"]
  null_resource.sw["x"]
  terraform_data.rep
  terraform_data.upd
  $ cairn plan -detailed-exitcode
  terraform_data\.upd: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  terraform_data\.rep: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  null_resource\.cnt\[0\]: Refreshing state\.\.\. \[id=\d+\] (re)
  null_resource\.each\["a"\]: Refreshing state\.\.\. \[id=\d+\] (re)
  null_resource\.each\["c"\]: Refreshing state\.\.\. \[id=\d+\] (re)
  null_resource\.sw\["x"\]: Refreshing state\.\.\. \[id=\d+\] (re)
  
  No changes. Your infrastructure matches the configuration.
  
  cairn has compared your real infrastructure against your configuration and
  found no differences, so no changes are needed.
