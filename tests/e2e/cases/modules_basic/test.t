A module called once: arguments (one left to its default), outputs read by
the root, addresses in the human plan, the JSON plan and the state; a saved
plan applies; `cairn output` shows only the root module's outputs.

  $ cairn plan -out=p.bin
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # terraform_data.consumer will be created
    + resource "terraform_data" "consumer" {
        + id     = (known after apply)
        + input  = [
            + (known after apply),
            + (known after apply),
          ]
        + output = (known after apply)
      }
  
    # module.net.terraform_data.subnet[0] will be created
    + resource "terraform_data" "subnet" {
        + id     = (known after apply)
        + input  = "dev-net:10.0.0.0/24:a"
        + output = (known after apply)
      }
  
    # module.net.terraform_data.subnet[1] will be created
    + resource "terraform_data" "subnet" {
        + id     = (known after apply)
        + input  = "dev-net:10.0.1.0/24:a"
        + output = (known after apply)
      }
  
  Plan: 3 to add, 0 to change, 0 to destroy.
  
  Changes to Outputs:
    + net_name = "dev-net"
    + port     = "8080"
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Saved the plan to: p.bin
  
  To perform exactly these actions, run the following command to apply:
      cairn apply "p.bin"
  $ cairn show -json p.bin | python3 "$E2E_LIB/modq.py" plan
  resource_changes:
    terraform_data.consumer module_address=- actions=create reason=-
    module.net.terraform_data.subnet[0] module_address=module.net actions=create reason=-
    module.net.terraform_data.subnet[1] module_address=module.net actions=create reason=-
  planned_values:
    module (root)
      terraform_data.consumer
      module module.net
        module.net.terraform_data.subnet[0]
        module.net.terraform_data.subnet[1]
  provider_config:
    terraform {"full_name": "terraform.io/builtin/terraform", "name": "terraform"}
  configuration:
    resource terraform_data.consumer key=terraform
    call net source="./modules/net" args=cidrs,name,port
      resource terraform_data.subnet key=terraform
      output name
      output port
      output subnet_ids
      output unused
      variable cidrs {}
      variable name {}
      variable port {"default": "80"}
      variable zone {"default": "a"}
  $ cairn apply p.bin
  module.net.terraform_data.subnet[0]: Creating...
  module\.net\.terraform_data\.subnet\[0\]: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  module.net.terraform_data.subnet[1]: Creating...
  module\.net\.terraform_data\.subnet\[1\]: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  terraform_data.consumer: Creating...
  terraform_data\.consumer: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  
  Apply complete! Resources: 3 added, 0 changed, 0 destroyed.
  
  Outputs:
  
  net_name = "dev-net"
  port = "8080"
  $ python3 "$E2E_LIB/modq.py" state
  terraform_data.consumer module='' provider=provider["terraform.io/builtin/terraform"]
    key=null deps=['module.net.terraform_data.subnet']
  module.net.terraform_data.subnet module='module.net' provider=provider["terraform.io/builtin/terraform"]
    key=0 deps=[]
    key=1 deps=[]
  $ cairn output
  net_name = "dev-net"
  port = "8080"
  $ cairn output unused
  
  Error: Output "unused" not found
  
  The output variable requested could not be found in the state file. If you
  recently added this to your configuration, be sure to run `cairn apply`,
  since the state won't be updated with new output variables until that command
  is run.
  [1]
  $ cairn state list
  terraform_data.consumer
  module.net.terraform_data.subnet[0]
  module.net.terraform_data.subnet[1]
  $ cairn plan -detailed-exitcode
  module\.net\.terraform_data\.subnet\[0\]: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  module\.net\.terraform_data\.subnet\[1\]: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  terraform_data\.consumer: Refreshing state\.\.\. \[id=[0-9a-f-]{36}\] (re)
  
  No changes. Your infrastructure matches the configuration.
  
  cairn has compared your real infrastructure against your configuration and
  found no differences, so no changes are needed.
