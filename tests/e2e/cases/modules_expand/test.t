count and for_each on module calls: instance addresses (module.worker[0],
module.site["east"]), whole-call references (module.worker[*].name, a for
expression over module.site) and single-instance ones.

  $ cp -r cfg one && cp -r cfg many
  $ cd one && cairn plan -out=p.bin
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # terraform_data.summary will be created
    + resource "terraform_data" "summary" {
        + id     = (known after apply)
        + input  = {
            + east    = (known after apply)
            + workers = [
                + (known after apply),
                + (known after apply),
              ]
          }
        + output = (known after apply)
      }
  
    # module.site["east"].terraform_data.node will be created
    + resource "terraform_data" "node" {
        + id     = (known after apply)
        + input  = "site-east"
        + output = (known after apply)
      }
  
    # module.site["west"].terraform_data.node will be created
    + resource "terraform_data" "node" {
        + id     = (known after apply)
        + input  = "site-west"
        + output = (known after apply)
      }
  
    # module.worker[0].terraform_data.node will be created
    + resource "terraform_data" "node" {
        + id     = (known after apply)
        + input  = "worker-0"
        + output = (known after apply)
      }
  
    # module.worker[1].terraform_data.node will be created
    + resource "terraform_data" "node" {
        + id     = (known after apply)
        + input  = "worker-1"
        + output = (known after apply)
      }
  
  Plan: 5 to add, 0 to change, 0 to destroy.
  
  Changes to Outputs:
    + first_worker = (known after apply)
    + sites        = {
        + east = (known after apply)
        + west = (known after apply)
      }
    + workers      = [
        + (known after apply),
        + (known after apply),
      ]
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Saved the plan to: p.bin
  
  To perform exactly these actions, run the following command to apply:
      cairn apply "p.bin"
  $ cd one && cairn show -json p.bin | python3 "$E2E_LIB/modq.py" plan
  resource_changes:
    terraform_data.summary module_address=- actions=create reason=-
    module.site["east"].terraform_data.node module_address=module.site["east"] actions=create reason=-
    module.site["west"].terraform_data.node module_address=module.site["west"] actions=create reason=-
    module.worker[0].terraform_data.node module_address=module.worker[0] actions=create reason=-
    module.worker[1].terraform_data.node module_address=module.worker[1] actions=create reason=-
  planned_values:
    module (root)
      terraform_data.summary
      module module.site["east"]
        module.site["east"].terraform_data.node
      module module.site["west"]
        module.site["west"].terraform_data.node
      module module.worker[0]
        module.worker[0].terraform_data.node
      module module.worker[1]
        module.worker[1].terraform_data.node
  provider_config:
    terraform {"full_name": "terraform.io/builtin/terraform", "name": "terraform"}
  configuration:
    resource terraform_data.summary key=terraform
    call site source="./svc" for_each_expression={"references": ["var.sites"]} args=name
      resource terraform_data.node key=terraform
      output id
      output name
      variable name {}
    call worker source="./svc" count_expression={"references": ["var.workers"]} args=name
      resource terraform_data.node key=terraform
      output id
      output name
      variable name {}
  $ cd one && cairn apply -parallelism=1 p.bin | sed -E -f ../norm.sed > ../one.out
  $ cd many && cairn apply -auto-approve -parallelism=10 | sed -E -f ../norm.sed > ../many.out

The same text whatever the parallelism (the saved plan's apply prints no
plan, so compare from the first progress line).

  $ sed -n '/Creating/,$p' one.out > one.tail && sed -n '/Creating/,$p' many.out > many.tail && cmp one.tail many.tail && cat one.tail
  module.worker[0].terraform_data.node: Creating...
  module\.worker\[0\]\.terraform_data\.node: Creation complete after \d+s \[id=ID\] (re)
  module.worker[1].terraform_data.node: Creating...
  module\.worker\[1\]\.terraform_data\.node: Creation complete after \d+s \[id=ID\] (re)
  module.site["east"].terraform_data.node: Creating...
  module\.site\["east"\]\.terraform_data\.node: Creation complete after \d+s \[id=ID\] (re)
  module.site["west"].terraform_data.node: Creating...
  module\.site\["west"\]\.terraform_data\.node: Creation complete after \d+s \[id=ID\] (re)
  terraform_data.summary: Creating...
  terraform_data\.summary: Creation complete after \d+s \[id=ID\] (re)
  
  Apply complete! Resources: 5 added, 0 changed, 0 destroyed.
  
  Outputs:
  
  first_worker = "worker-0"
  sites = {
    "east" = "site-east"
    "west" = "site-west"
  }
  workers = [
    "worker-0",
    "worker-1",
  ]
  $ cd one && python3 "$E2E_LIB/modq.py" state
  terraform_data.summary module='' provider=provider["terraform.io/builtin/terraform"]
    key=null deps=['module.site.terraform_data.node', 'module.worker.terraform_data.node']
  module.site["east"].terraform_data.node module='module.site["east"]' provider=provider["terraform.io/builtin/terraform"]
    key=null deps=[]
  module.site["west"].terraform_data.node module='module.site["west"]' provider=provider["terraform.io/builtin/terraform"]
    key=null deps=[]
  module.worker[0].terraform_data.node module='module.worker[0]' provider=provider["terraform.io/builtin/terraform"]
    key=null deps=[]
  module.worker[1].terraform_data.node module='module.worker[1]' provider=provider["terraform.io/builtin/terraform"]
    key=null deps=[]

Fewer workers: the instance that is gone is destroyed because its module
instance is not in the configuration any more.

  $ cd one && cairn plan -var workers=1 -out=p2.bin
  module\.worker\[0\]\.terraform_data\.node: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  module\.worker\[1\]\.terraform_data\.node: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  module\.site\["east"\]\.terraform_data\.node: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  module\.site\["west"\]\.terraform_data\.node: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  terraform_data\.summary: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    ~ update in-place
    - destroy
  
  cairn will perform the following actions:
  
    # terraform_data.summary will be updated in-place
    ~ resource "terraform_data" "summary" {
          id     = "[0-9a-f-]{36}" (re)
        ~ input  = {
            ~ workers = [
                  "worker-0",
                - "worker-1",
              ]
              # (1 unchanged attribute hidden)
          }
        ~ output = {
            - east    = "[0-9a-f-]{36}" (re)
            - workers = [
                - "worker-0",
                - "worker-1",
              ]
          } -> (known after apply)
      }
  
    # module.worker[1].terraform_data.node will be destroyed
    # (because module.worker[1] is not in configuration)
    - resource "terraform_data" "node" {
        - id     = "[0-9a-f-]{36}" -> null (re)
        - input  = "worker-1" -> null
        - output = "worker-1" -> null
      }
  
  Plan: 0 to add, 1 to change, 1 to destroy.
  
  Changes to Outputs:
    ~ workers      = [
          "worker-0",
        - "worker-1",
      ]
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Saved the plan to: p2.bin
  
  To perform exactly these actions, run the following command to apply:
      cairn apply "p2.bin"
  $ cd one && cairn show -json p2.bin | python3 "$E2E_LIB/modq.py" plan | sed -n '/resource_changes/,/planned_values/p'
  resource_changes:
    terraform_data.summary module_address=- actions=update reason=-
    module.site["east"].terraform_data.node module_address=module.site["east"] actions=no-op reason=-
    module.site["west"].terraform_data.node module_address=module.site["west"] actions=no-op reason=-
    module.worker[0].terraform_data.node module_address=module.worker[0] actions=no-op reason=-
    module.worker[1].terraform_data.node module_address=module.worker[1] actions=delete reason=delete_because_no_module
  planned_values:
  $ cd one && cairn apply p2.bin
  module\.worker\[1\]\.terraform_data\.node: Destroying\.\.\. \[id=[0-9a-f-]{36}\] (re)
  module\.worker\[1\]\.terraform_data\.node: Destruction complete after \d+s (re)
  terraform_data\.summary: Modifying\.\.\. \[id=[0-9a-f-]{36}\] (re)
  terraform_data\.summary: Modifications complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  
  Apply complete! Resources: 0 added, 1 changed, 1 destroyed.
  
  Outputs:
  
  first_worker = "worker-0"
  sites = {
    "east" = "site-east"
    "west" = "site-west"
  }
  workers = [
    "worker-0",
  ]
  $ cd one && cairn state list
  terraform_data.summary
  module.site["east"].terraform_data.node
  module.site["west"].terraform_data.node
  module.worker[0].terraform_data.node

Removing a module call destroys everything in it.

  $ cd one && sed -i -e '/^module "site"/,/^}/d' -e 's/module.site\["east"\].id/"none"/' -e '/^output "sites"/,/^}/d' main.tf
  $ cd one && cairn plan -var workers=1 -out=p3.bin
  module\.worker\[0\]\.terraform_data\.node: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  terraform_data\.summary: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  module\.site\["east"\]\.terraform_data\.node: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  module\.site\["west"\]\.terraform_data\.node: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    ~ update in-place
    - destroy
  
  cairn will perform the following actions:
  
    # terraform_data.summary will be updated in-place
    ~ resource "terraform_data" "summary" {
          id     = "[0-9a-f-]{36}" (re)
        ~ input  = {
            \~ east    = "[0-9a-f-]{36}" -> "none" (re)
              # (1 unchanged attribute hidden)
          }
        ~ output = {
            - east    = "[0-9a-f-]{36}" (re)
            - workers = [
                - "worker-0",
              ]
          } -> (known after apply)
      }
  
    # module.site["east"].terraform_data.node will be destroyed
    # (because module.site["east"] is not in configuration)
    - resource "terraform_data" "node" {
        - id     = "[0-9a-f-]{36}" -> null (re)
        - input  = "site-east" -> null
        - output = "site-east" -> null
      }
  
    # module.site["west"].terraform_data.node will be destroyed
    # (because module.site["west"] is not in configuration)
    - resource "terraform_data" "node" {
        - id     = "[0-9a-f-]{36}" -> null (re)
        - input  = "site-west" -> null
        - output = "site-west" -> null
      }
  
  Plan: 0 to add, 1 to change, 2 to destroy.
  
  Changes to Outputs:
    - sites        = {
        - east = "site-east"
        - west = "site-west"
      } -> null
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Saved the plan to: p3.bin
  
  To perform exactly these actions, run the following command to apply:
      cairn apply "p3.bin"
  $ cd one && cairn show -json p3.bin | python3 "$E2E_LIB/modq.py" plan | sed -n '/resource_changes/,/planned_values/p'
  resource_changes:
    terraform_data.summary module_address=- actions=update reason=-
    module.site["east"].terraform_data.node module_address=module.site["east"] actions=delete reason=delete_because_no_module
    module.site["west"].terraform_data.node module_address=module.site["west"] actions=delete reason=delete_because_no_module
    module.worker[0].terraform_data.node module_address=module.worker[0] actions=no-op reason=-
  planned_values:
  $ cd one && cairn apply p3.bin
  terraform_data\.summary: Modifying\.\.\. \[id=[0-9a-f-]{36}\] (re)
  terraform_data\.summary: Modifications complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  module\.site\["east"\]\.terraform_data\.node: Destroying\.\.\. \[id=[0-9a-f-]{36}\] (re)
  module\.site\["east"\]\.terraform_data\.node: Destruction complete after \d+s (re)
  module\.site\["west"\]\.terraform_data\.node: Destroying\.\.\. \[id=[0-9a-f-]{36}\] (re)
  module\.site\["west"\]\.terraform_data\.node: Destruction complete after \d+s (re)
  
  Apply complete! Resources: 0 added, 1 changed, 2 destroyed.
  
  Outputs:
  
  first_worker = "worker-0"
  workers = [
    "worker-0",
  ]
  $ cd one && python3 "$E2E_LIB/modq.py" state
  terraform_data.summary module='' provider=provider["terraform.io/builtin/terraform"]
    key=null deps=['module.worker.terraform_data.node']
  module.worker[0].terraform_data.node module='module.worker[0]' provider=provider["terraform.io/builtin/terraform"]
    key=null deps=[]
