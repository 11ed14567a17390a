Module trees: every module called from a local path is loaded and
validated in its own scope; a call's arguments must be variables of the
child (required ones set), module.NAME.OUTPUT must name a declared output.

  $ cd good && cairn validate -no-color
  Success! The configuration is valid.
  

A module called twice is validated once per call, as Terraform walks each
module path.

  $ cd bad && cairn validate -no-color
  
  Error: Missing required argument
  
    on main.tf line 1, in module "net":
     1: module "net" {
  
  The argument "cidr" is required, but no definition was found.
  
  Error: Unsupported argument
  
    on main.tf line 3, in module "net":
     3:   cidrr  = "10.0.0.0/16"
  
  An argument named "cidrr" is not expected here. Did you mean "cidr"?
  
  Error: Unsupported argument
  
    on main.tf line 9, in module "other":
     9:   zone   = "a"
  
  An argument named "zone" is not expected here.
  
  Error: Unsupported attribute
  
    on main.tf line 13, in output "subnet":
    13:   value = module.net.subnets
      ├─────────────────
      │ module.net is a object
  
  This object does not have an attribute named "subnets".
  
  Error: Reference to undeclared module
  
    on main.tf line 17, in output "missing":
    17:   value = module.nett.subnet
  
  No module call named "nett" is declared in the root module. Did you mean
  "net"?
  
  Error: Unsupported attribute
  
    on modules/net/main.tf line 19, in output "broken":
    19:   value = terraform_data.subnet.nope
  
  This object has no argument, nested block, or exported attribute named
  "nope".
  
  Error: Unsupported attribute
  
    on modules/net/main.tf line 19, in output "broken":
    19:   value = terraform_data.subnet.nope
  
  This object has no argument, nested block, or exported attribute named
  "nope".
  
  Error: Reference to undeclared input variable
  
    on modules/net/main.tf line 23, in output "typo":
    23:   value = var.nmae
  
  An input variable with the name "nmae" has not been declared. Did you mean
  "name"?
  
  Error: Reference to undeclared input variable
  
    on modules/net/main.tf line 23, in output "typo":
    23:   value = var.nmae
  
  An input variable with the name "nmae" has not been declared. Did you mean
  "name"?
  [1]

Dependency cycles are reported alone, before any other check, as the
engine names them.

  $ cd cycle && cairn validate -no-color
  
  Error: Cycle: local.a, local.b
  
  
  Error: Cycle: terraform_data.x, terraform_data.y
  
  [1]

  $ cd cycle && cairn validate -json | grep -c '"summary": "Cycle'
  2
