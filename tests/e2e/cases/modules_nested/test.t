Modules nested three deep: module.app.module.region.module.zone addresses in
plans and state, outputs passed up through every level, and a destroy that
removes the root resource consuming the deepest output first.

  $ cairn plan -out=p.bin
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # terraform_data.dns will be created
    + resource "terraform_data" "dns" {
        + id     = (known after apply)
        + input  = (known after apply)
        + output = (known after apply)
      }
  
    # module.app.module.region.module.zone.terraform_data.host will be created
    + resource "terraform_data" "host" {
        + id     = (known after apply)
        + input  = "prod-eu-1a"
        + output = (known after apply)
      }
  
  Plan: 2 to add, 0 to change, 0 to destroy.
  
  Changes to Outputs:
    + record = (known after apply)
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Saved the plan to: p.bin
  
  To perform exactly these actions, run the following command to apply:
      cairn apply "p.bin"
  $ cairn show -json p.bin | python3 "$E2E_LIB/modq.py" plan
  resource_changes:
    terraform_data.dns module_address=- actions=create reason=-
    module.app.module.region.module.zone.terraform_data.host module_address=module.app.module.region.module.zone actions=create reason=-
  planned_values:
    module (root)
      terraform_data.dns
      module module.app
        module module.app.module.region
          module module.app.module.region.module.zone
            module.app.module.region.module.zone.terraform_data.host
  provider_config:
    module.app.module.region.module.zone:terraform {"full_name": "terraform.io/builtin/terraform", "module_address": "module.app.module.region.module.zone", "name": "terraform"}
    terraform {"full_name": "terraform.io/builtin/terraform", "name": "terraform"}
  configuration:
    resource terraform_data.dns key=terraform
    call app source="./app" args=env
      output zone_record
      variable env {}
      call region source="./region" args=name
        output record
        variable name {}
        call zone source="./zone" args=label
          resource terraform_data.host key=module.app.module.region.module.zone:terraform
          output record
          variable label {}
  $ cairn apply p.bin
  module.app.module.region.module.zone.terraform_data.host: Creating...
  module\.app\.module\.region\.module\.zone\.terraform_data\.host: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  terraform_data.dns: Creating...
  terraform_data\.dns: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  
  Apply complete! Resources: 2 added, 0 changed, 0 destroyed.
  
  Outputs:
  
  record = "prod-eu-1a.example"
  $ python3 "$E2E_LIB/modq.py" state
  terraform_data.dns module='' provider=provider["terraform.io/builtin/terraform"]
    key=null deps=['module.app.module.region.module.zone.terraform_data.host']
  module.app.module.region.module.zone.terraform_data.host module='module.app.module.region.module.zone' provider=provider["terraform.io/builtin/terraform"]
    key=null deps=[]
  $ cairn state list
  terraform_data.dns
  module.app.module.region.module.zone.terraform_data.host
  $ cairn destroy -auto-approve
  terraform_data\.dns: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  module\.app\.module\.region\.module\.zone\.terraform_data\.host: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    - destroy
  
  cairn will perform the following actions:
  
    # terraform_data.dns will be destroyed
    - resource "terraform_data" "dns" {
        - id     = "[0-9a-f-]{36}" -> null (re)
        - input  = "prod-eu-1a.example" -> null
        - output = "prod-eu-1a.example" -> null
      }
  
    # module.app.module.region.module.zone.terraform_data.host will be destroyed
    - resource "terraform_data" "host" {
        - id     = "[0-9a-f-]{36}" -> null (re)
        - input  = "prod-eu-1a" -> null
        - output = "prod-eu-1a" -> null
      }
  
  Plan: 0 to add, 0 to change, 2 to destroy.
  
  Changes to Outputs:
    - record = "prod-eu-1a.example" -> null
  terraform_data\.dns: Destroying\.\.\. \[id=[0-9a-f-]{36}\] (re)
  terraform_data\.dns: Destruction complete after \d+s (re)
  module\.app\.module\.region\.module\.zone\.terraform_data\.host: Destroying\.\.\. \[id=[0-9a-f-]{36}\] (re)
  module\.app\.module\.region\.module\.zone\.terraform_data\.host: Destruction complete after \d+s (re)
  
  Destroy complete! Resources: 2 destroyed.
  $ cat terraform.tfstate | python3 -c 'import json,sys; print(json.load(sys.stdin)["resources"])'
  []
