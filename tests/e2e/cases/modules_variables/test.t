Module input variables: defaults, conversion to the declared type (a map of
numbers and strings becomes map(string)), null for a non-nullable variable
keeps its default.

  $ cairn apply -auto-approve
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # module.defaults.terraform_data.t will be created
    + resource "terraform_data" "t" {
        + id     = (known after apply)
        + input  = "d/3//kept"
        + output = (known after apply)
      }
  
    # module.given.terraform_data.t will be created
    + resource "terraform_data" "t" {
        + id     = (known after apply)
        + input  = "g/7/a,b/kept"
        + output = (known after apply)
      }
  
  Plan: 2 to add, 0 to change, 0 to destroy.
  
  Changes to Outputs:
    + defaults = "d/3//kept"
    + given    = "g/7/a,b/kept"
  module.defaults.terraform_data.t: Creating...
  module\.defaults\.terraform_data\.t: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  module.given.terraform_data.t: Creating...
  module\.given\.terraform_data\.t: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  
  Apply complete! Resources: 2 added, 0 changed, 0 destroyed.
  
  Outputs:
  
  defaults = "d/3//kept"
  given = "g/7/a,b/kept"
  $ cairn show -json | python3 -c 'import json,sys; [print(r["address"], r["values"]["input"]) for m in json.load(sys.stdin)["values"]["root_module"]["child_modules"] for r in m["resources"]]'
  module.defaults.terraform_data.t d/3//kept
  module.given.terraform_data.t g/7/a,b/kept

The errors: a value of the wrong type, a required variable not given, and
an argument the module does not declare (also from validate).

  $ cd typeerr && cairn plan
  
  Error: Invalid value for input variable
  
    on main.tf line 3, in module "m":
     3:   name   = ["not", "a", "string"]
  
  The given value is not suitable for module.m.var.name declared at
  ../mod/main.tf:1,1-16: string required.
  [1]
  $ cd missing && cairn plan
  
  Error: Missing required argument
  
    on main.tf line 1, in module "m":
     1: module "m" {
  
  The argument "name" is required, but no definition was found.
  [1]
  $ cd unsupported && cairn plan
  
  Error: Unsupported argument
  
    on main.tf line 4, in module "m":
     4:   colour = "blue"
  
  An argument named "colour" is not expected here.
  [1]
  $ cd unsupported && cairn validate
  
  Error: Unsupported argument
  
    on main.tf line 4, in module "m":
     4:   colour = "blue"
  
  An argument named "colour" is not expected here.
  [1]
