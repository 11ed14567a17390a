state show renders one instance's attributes, sorted, sensitive ones hidden.
Built-in providers' objects are decoded against their schema (unknown
attributes dropped); others are drawn from the stored JSON.

  $ cairn state show null_resource.a
  # null_resource.a:
  resource "null_resource" "a" {
      id       = "100"
      triggers = {
          "k"   = "v"
          "x y" = "z"
      }
  }
  $ cairn state show 'null_resource.b[0]'
  # null_resource.b[0]:
  resource "null_resource" "b" {
      id = "200"
  }
  $ cairn state show module.child.null_resource.c
  # module.child.null_resource.c:
  resource "null_resource" "c" {
      id = "300"
  }
  $ cairn state show aws_thing.x
  # aws_thing.x:
  resource "aws_thing" "x" {
      empty  = []
      id     = "i-1"
      list   = [
          1,
          "two",
      ]
      multi  = <<-EOT
          line1
          line2
      EOT
      nested = {
          a = true
      }
      secret = (sensitive value)
  }
  $ cairn state show null_resource.s
  # null_resource.s: (tainted)
  resource "null_resource" "s" {
      id       = "9"
      triggers = {
          "pw" = (sensitive value)
          "x"  = "y"
      }
  }

Module addresses, whole counted resources and missing instances are refused.

  $ cairn state show module.child
  Error parsing instance address: module.child
  
  This command requires that the address references one specific instance.
  To view the available instances, use "terraform state list". Please modify 
  the address to reference a specific instance.
  [1]
  $ cairn state show null_resource.b
  No instance found for the given address!
  
  This command requires that the address references one specific instance.
  To view the available instances, use "terraform state list". Please modify 
  the address to reference a specific instance.
  [1]
  $ cairn state show null_resource.nope
  No instance found for the given address!
  
  This command requires that the address references one specific instance.
  To view the available instances, use "terraform state list". Please modify 
  the address to reference a specific instance.
  [1]
  $ cairn state show
  Exactly one argument expected.
  
  Usage: cairn [global options] state show [options] ADDRESS
  
    Shows the attributes of a resource in the Terraform state.
  
    This command shows the attributes of a single resource in the Terraform
    state. The address argument must be used to specify a single resource.
    You can view the list of available resources with "terraform state list".
  
  Options:
  
    -state=statefile    Path to a Terraform state file to use to look
                        up Terraform-managed resources. By default it will
                        use the state "terraform.tfstate" if it exists.
  [2]
  $ cairn state show -state=none.tfstate null_resource.a
  No state file was found!
  
  State management commands require a state file. Run this command
  in a directory where Terraform has been run or use the -state flag
  to point the command to a specific state location.
  [1]
