Provider-defined functions: provider::local::direxists from the built-in
local provider (declared in required_providers), and the built-in
terraform provider's functions, which need no declaration.

  $ mkdir sub && touch afile
  $ cairn validate -no-color
  Success! The configuration is valid.
  
  $ cairn plan -no-color | grep -E '^  [+] '
    + create
    + resource "local_file" "f" {
    + abs     = true
    + later   = (known after apply)
    + missing = false
    + secret  = (sensitive value)
    + sub     = true
    + tfvars  = <<-EOT

An argument unknown at plan makes the result unknown; apply calls it.

  $ cairn apply -auto-approve -no-color > out; echo "exit $?"
  exit 0
  $ cairn output -json | python3 -c 'import json,sys; print(sorted((k, v["value"]) for k, v in json.load(sys.stdin).items()))'
  [('abs', True), ('later', False), ('missing', False), ('secret', True), ('sub', True), ('tfvars', 'a = 1\n')]

Errors, as Terraform words them: the provider's own (an argument error
naming the parameter), an unknown function or provider name, and the
checks the core makes before calling (null, type, arity).  Plan validates
first, as Terraform does, calling provider functions whose arguments are
known there: the errors are shown alone, with no refresh and no plan.

  $ cp bad.tf.txt bad.tf
  $ cairn plan -no-color
  
  Error: Invalid function argument
  
    on bad.tf line 1, in output "file":
     1: output "file" { value = provider::local::direxists("afile") }
  
  Invalid value for "path" parameter: Invalid file mode detected: "afile" was
  found, but is not a directory.
  
  Error: Unknown provider function
  
    on bad.tf line 2, in output "nofn":
     2: output "nofn" { value = provider::local::nope("x") }
  
  The function "nope" is not available from the provider "local".
  
  Error: Unknown provider function
  
    on bad.tf line 3, in output "noprov":
     3: output "noprov" { value = provider::aws::arn_parse("x") }
  
  There is no function named "provider::aws::arn_parse". Ensure that provider
  name "aws" is declared in this module's required_providers block, and that
  this provider offers a function named "arn_parse".
  
  Error: Unknown provider function
  
    on bad.tf line 4, in output "ns":
     4: output "ns" { value = aws::arn_parse("x") }
  
  The function namespace "aws" is not valid. Provider function calls must use
  the "provider::" namespace prefix.
  
  Error: Invalid function argument
  
    on bad.tf line 5, in output "null":
     5: output "null" { value = provider::local::direxists(null) }
  
  Invalid value for "path" parameter: argument must not be null.
  
  Error: Invalid function argument
  
    on bad.tf line 6, in output "type":
     6: output "type" { value = provider::local::direxists({}) }
  
  Invalid value for "path" parameter: string required.
  
  Error: Too many function arguments
  
    on bad.tf line 7, in output "many":
     7: output "many" { value = provider::local::direxists("a", "b") }
  
  Function "provider::local::direxists" expects only 1 argument(s).
  [1]
cairn validate runs the same validate walk (locals and outputs evaluated
with unknown inputs, provider functions called), so it reports the same
errors, as Terraform's validate does.

  $ cairn validate -no-color
  
  Error: Invalid function argument
  
    on bad.tf line 1, in output "file":
     1: output "file" { value = provider::local::direxists("afile") }
  
  Invalid value for "path" parameter: Invalid file mode detected: "afile" was
  found, but is not a directory.
  
  Error: Unknown provider function
  
    on bad.tf line 2, in output "nofn":
     2: output "nofn" { value = provider::local::nope("x") }
  
  The function "nope" is not available from the provider "local".
  
  Error: Unknown provider function
  
    on bad.tf line 3, in output "noprov":
     3: output "noprov" { value = provider::aws::arn_parse("x") }
  
  There is no function named "provider::aws::arn_parse". Ensure that provider
  name "aws" is declared in this module's required_providers block, and that
  this provider offers a function named "arn_parse".
  
  Error: Unknown provider function
  
    on bad.tf line 4, in output "ns":
     4: output "ns" { value = aws::arn_parse("x") }
  
  The function namespace "aws" is not valid. Provider function calls must use
  the "provider::" namespace prefix.
  
  Error: Invalid function argument
  
    on bad.tf line 5, in output "null":
     5: output "null" { value = provider::local::direxists(null) }
  
  Invalid value for "path" parameter: argument must not be null.
  
  Error: Invalid function argument
  
    on bad.tf line 6, in output "type":
     6: output "type" { value = provider::local::direxists({}) }
  
  Invalid value for "path" parameter: string required.
  
  Error: Too many function arguments
  
    on bad.tf line 7, in output "many":
     7: output "many" { value = provider::local::direxists("a", "b") }
  
  Function "provider::local::direxists" expects only 1 argument(s).
  [1]
  $ rm bad.tf && cp badres.tf.txt badres.tf
  $ cairn validate -no-color
  
  Error: Unknown provider function
  
    on badres.tf line 3, in resource "local_file" "g":
     3:   content  = provider::aws::arn_parse("x")
  
  There is no function named "provider::aws::arn_parse". Ensure that provider
  name "aws" is declared in this module's required_providers block, and that
  this provider offers a function named "arn_parse".
  [1]

Each module sees the functions of its own required_providers, under the
local name it chose there; the caller's declarations do not reach it.

  $ rm badres.tf && cp modules.tf.txt modules.tf
  $ cairn plan -no-color | grep -E '^  [+~] +child'
    + child   = true
  $ cp nodecl.tf.txt nodecl.tf
  $ cairn plan -no-color
  
  Error: Unknown provider function
  
    on nodecl/main.tf line 1, in output "exists":
     1: output "exists" { value = provider::local::direxists(".") }
  
  There is no function named "provider::local::direxists". Ensure that provider
  name "local" is declared in this module's required_providers block, and that
  this provider offers a function named "direxists".
  [1]
