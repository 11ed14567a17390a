Terraform's plan and apply run the validate walk first (the local backend
calls Context.Validate before Context.Plan) and a configuration that does
not validate gets no plan: its errors are shown alone, with no refresh, no
"Planning failed." and no partial plan, and plan -out writes no file.
Validation covers the providers' ValidateResourceConfig (here the built-in
random_password's "At least one attribute" validator), a known count or
for_each, and locals and outputs evaluated with unknown inputs (an unknown
function).  An error only the plan finds (an output failing on a value
known at plan) keeps "planned the following actions, but then encountered
a problem" with the partial plan, and the output that failed is not listed
under "Changes to Outputs", as Terraform records no change for it.

  $ cairn apply -auto-approve -no-color > /dev/null
  $ cp validator.tf.txt validator.tf
  $ cairn plan -no-color -out v.tfplan
  
  Error: Invalid Attribute Combination
  
    with random_password.p,
    on validator.tf line 6, in resource "random_password" "p":
     6:   numeric = false
  
  At least one attribute out of [special,upper,lower,numeric] must be specified
  as true
  [1]
  $ test -f v.tfplan; echo $?
  1
  $ cairn apply -auto-approve -no-color
  
  Error: Invalid Attribute Combination
  
    with random_password.p,
    on validator.tf line 6, in resource "random_password" "p":
     6:   numeric = false
  
  At least one attribute out of [special,upper,lower,numeric] must be specified
  as true
  [1]
  $ rm validator.tf && cp count.tf.txt count.tf
  $ cairn plan -no-color
  
  Error: Invalid count argument
  
    on count.tf line 2, in resource "terraform_data" "n":
     2:   count = -1
  
  The given "count" argument value is unsuitable: must be greater than or equal
  to zero.
  
  Error: Unknown provider function
  
    on count.tf line 6, in output "nofn":
     6:   value = provider::terraform::nope(1)
  
  There is no function named "provider::terraform::nope". Ensure that provider
  name "terraform" is declared in this module's required_providers block, and
  that this provider offers a function named "nope".
  [1]
  $ rm count.tf && cp output.tf.txt output.tf
  $ sed -i 's/"abc"/"abd"/; s/"fine"/"finer"/' main.tf
  $ cairn plan -no-color
  terraform_data\.a: Refreshing state\.\.\. \[id=[-0-9a-f]+\] (re)
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    ~ update in-place
  
  cairn planned the following actions, but then encountered a problem:
  
    # terraform_data.a will be updated in-place
    ~ resource "terraform_data" "a" {
          id     = "[-0-9a-f]+" (re)
        ~ input  = "abc" -> "abd"
        ~ output = "abc" -> (known after apply)
      }
  
  Plan: 0 to add, 1 to change, 0 to destroy.
  
  Changes to Outputs:
    ~ ok = "fine" -> "finer"
  
  Error: Invalid function argument
  
    on output.tf line 2, in output "bad":
     2:   value = tonumber(terraform_data.a.input)
  
  Invalid value for "v" parameter: cannot convert "abd" to number; given string
  must be a decimal representation of a number.
  [1]
