`null` is a keyword literal in expressions, but provider references are
traversals (hcl.AbsTraversalForExpr turns the keyword back into a name):
`providers = { null = null.alt }` in a module call, `provider = null.alt`
and `provider = null` on resources.

  $ cairn plan -out=p.bin
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # null_resource.d will be created
    + resource "null_resource" "d" {
        + id = (known after apply)
      }
  
    # null_resource.x will be created
    + resource "null_resource" "x" {
        + id = (known after apply)
      }
  
    # module.m.null_resource.r will be created
    + resource "null_resource" "r" {
        + id = (known after apply)
      }
  
  Plan: 3 to add, 0 to change, 0 to destroy.
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Saved the plan to: p.bin
  
  To perform exactly these actions, run the following command to apply:
      cairn apply "p.bin"
  $ cairn show -json p.bin | python3 "$E2E_LIB/modq.py" plan
  resource_changes:
    null_resource.d module_address=- actions=create reason=-
    null_resource.x module_address=- actions=create reason=-
    module.m.null_resource.r module_address=module.m actions=create reason=-
  planned_values:
    module (root)
      null_resource.d
      null_resource.x
      module module.m
        module.m.null_resource.r
  provider_config:
    null {"full_name": "registry.terraform.io/hashicorp/null", "name": "null"}
    null.alt {"alias": "alt", "full_name": "registry.terraform.io/hashicorp/null", "name": "null"}
  configuration:
    resource null_resource.d key=null
    resource null_resource.x key=null.alt
    call m source="./m"
      resource null_resource.r key=null.alt
  $ cairn apply p.bin > /dev/null && python3 "$E2E_LIB/modq.py" state
  null_resource.d module='' provider=provider["registry.terraform.io/hashicorp/null"]
    key=null deps=[]
  null_resource.x module='' provider=provider["registry.terraform.io/hashicorp/null"].alt
    key=null deps=[]
  module.m.null_resource.r module='module.m' provider=provider["registry.terraform.io/hashicorp/null"].alt
    key=null deps=[]

The same in JSON syntax: the strings are references, not templates.

  $ cd json && cairn plan -out=p.bin > /dev/null && cairn show -json p.bin | python3 "$E2E_LIB/modq.py" plan
  resource_changes:
    null_resource.x module_address=- actions=create reason=-
    module.m.null_resource.r module_address=module.m actions=create reason=-
  planned_values:
    module (root)
      null_resource.x
      module module.m
        module.m.null_resource.r
  provider_config:
    null {"full_name": "registry.terraform.io/hashicorp/null", "name": "null"}
    null.alt {"alias": "alt", "full_name": "registry.terraform.io/hashicorp/null", "name": "null"}
  configuration:
    resource null_resource.x key=null.alt
    call m source="./m"
      resource null_resource.r key=null.alt

Errors, with Terraform's messages: a quoted reference, an index instead of
an alias, and a child configuration passed twice.

  $ cd bad && cairn plan
  
  Error: Invalid provider configuration reference
  
    on main.tf line 6, in resource "null_resource" "quoted":
     6:   provider = "null.alt"
  
  A provider configuration reference must not be given in quotes.
  
  Error: Invalid provider configuration reference
  
    on main.tf line 10, in resource "null_resource" "indexed":
    10:   provider = null[0]
  
  Provider name must either stand alone or be followed by a period and then a
  configuration alias.
  
  Error: Duplicate provider address
  
    on main.tf line 17, in module "m":
    17:     null = null
  
  A provider configuration was already passed to null at main.tf:16,5-20. Each
  child provider configuration can be assigned only once.
  [1]
