Several kinds of validation errors; exit status 1.

  $ cairn validate
  
  Error: Reference to undeclared input variable
  
    on main.tf line 7, in resource "null_resource" "a":
     7:     x = var.missing
  
  An input variable with the name "missing" has not been declared. This
  variable can be declared with a variable "missing" {} block.
  
  Error: Unsupported argument
  
    on main.tf line 9, in resource "null_resource" "a":
     9:   trigers = {}
  
  An argument named "trigers" is not expected here.
  
  Error: Invalid resource type
  
    on main.tf line 12, in resource "null_resourc" "b":
    12: resource "null_resourc" "b" {
  
  The provider hashicorp/null does not support resource type "null_resourc".
  Did you mean "null_resource"?
  
  Error: Incorrect attribute value type
  
    on main.tf line 16, in resource "random_pet" "p":
    16:   length = "two"
  
  Inappropriate value for attribute "length": a number is required.
  
  Error: Unsupported attribute
  
    on main.tf line 18, in resource "random_pet" "p":
    18:     id = null_resource.a.idd
  
  This object has no argument, nested block, or exported attribute named "idd".
  Did you mean "id"?
  
  Error: Incorrect attribute value type
  
    on main.tf line 23, in resource "random_string" "s":
    23:   length = var.names
  
  Inappropriate value for attribute "length": number required.
  
  Error: Unsupported argument
  
    on main.tf line 24, in resource "random_string" "s":
    24:   lenght = 3
  
  An argument named "lenght" is not expected here.
  
  Error: Reference to "count" in non-counted context
  
    on main.tf line 28, in locals:
    28:   c = count.index
  
  The "count" object can only be used in "module", "resource", and "data"
  blocks, and only when the "count" argument is set.
  
  Error: Reference to "each" in context without for_each
  
    on main.tf line 29, in locals:
    29:   e = each.key
  
  The "each" object can be used only in "module" or "resource" blocks, and only
  when the "for_each" argument is set.
  
  Error: Invalid "self" reference
  
    on main.tf line 30, in locals:
    30:   s = self.id
  
  The "self" object is not available in this context. This object can be used
  only in resource provisioner, connection, and postcondition blocks.
  
  Error: Reference to undeclared local value
  
    on main.tf line 34, in output "o":
    34:   value = local.nope
  
  A local value with the name "nope" has not been declared.
  
  Error: Reference to undeclared module
  
    on main.tf line 38, in output "m":
    38:   value = module.net.id
  
  No module call named "net" is declared in the root module.
  [1]

Once the references check out, validate evaluates locals and outputs as
Terraform's validate walk does, with every input variable unknown: what
fails whatever the variables' values is an error (a function's arity or
argument, an operand's type, an attribute of a string), and what depends
on them waits for the plan.

  $ mkdir eval && cd eval && cat > main.tf <<'TF'
  > variable "v" { type = string }
  > locals {
  >   a = upper(1, 2)
  >   b = var.v.nope
  >   c = nosuchfn(1)
  >   d = "x" + 1
  >   e = tonumber(var.v)
  > }
  > output "o" { value = tonumber("abc") }
  > output "p" { value = local.e + 1 }
  > TF
  $ cd eval && cairn validate -no-color
  
  Error: Too many function arguments
  
    on main.tf line 3, in locals:
     3:   a = upper(1, 2)
  
  Function "upper" expects only 1 argument(s).
  
  Error: Unsupported attribute
  
    on main.tf line 4, in locals:
     4:   b = var.v.nope
  
  Can't access attributes on a primitive-typed value (string).
  
  Error: Call to unknown function
  
    on main.tf line 5, in locals:
     5:   c = nosuchfn(1)
  
  There is no function named "nosuchfn".
  
  Error: Invalid operand
  
    on main.tf line 6, in locals:
     6:   d = "x" + 1
  
  Unsuitable value for left operand: a number is required.
  
  Error: Invalid function argument
  
    on main.tf line 9, in output "o":
     9: output "o" { value = tonumber("abc") }
  
  Invalid value for "v" parameter: cannot convert "abc" to number; given string
  must be a decimal representation of a number.
  [1]
  $ cd eval && cairn validate -json | python3 -c '
  > import json, sys
  > d = json.load(sys.stdin)
  > print(d["valid"], d["error_count"], [x["summary"] for x in d["diagnostics"]])'
  False 5 ['Too many function arguments', 'Unsupported attribute', 'Call to unknown function', 'Invalid operand', 'Invalid function argument']
