replace-provider asks first; only "yes" proceeds.

  $ cairn state replace-provider hashicorp/null acme/null
  Terraform will perform the following actions:
  
    ~ Updating provider:
      - registry.terraform.io/hashicorp/null
      + registry.terraform.io/acme/null
  
  Changing 4 resources:
  
    data.null_data_source.d
    null_resource.a
    null_resource.b
    module.child.null_resource.c
  
  Do you want to make these changes?
  Only 'yes' will be accepted to continue.
  
  Enter a value: 
  Error asking for approval: EOF
  [1]
  $ echo no | cairn state replace-provider null acme/null
  Terraform will perform the following actions:
  
    ~ Updating provider:
      - registry.terraform.io/hashicorp/null
      + registry.terraform.io/acme/null
  
  Changing 4 resources:
  
    data.null_data_source.d
    null_resource.a
    null_resource.b
    module.child.null_resource.c
  
  Do you want to make these changes?
  Only 'yes' will be accepted to continue.
  
  Enter a value: Cancelled replacing providers.
  $ grep -c 'hashicorp/null' terraform.tfstate
  4
  $ echo yes | cairn state replace-provider registry.terraform.io/hashicorp/null example.com/Acme/null
  Terraform will perform the following actions:
  
    ~ Updating provider:
      - registry.terraform.io/hashicorp/null
      + example.com/acme/null
  
  Changing 4 resources:
  
    data.null_data_source.d
    null_resource.a
    null_resource.b
    module.child.null_resource.c
  
  Do you want to make these changes?
  Only 'yes' will be accepted to continue.
  
  Enter a value: 
  Successfully replaced provider for 4 resources.
  $ grep -c 'example.com/acme/null' terraform.tfstate
  4
  $ cairn state replace-provider -auto-approve hashicorp/null acme/null
  No matching resources found.
  $ cairn state replace-provider a/b/c/d -x-
  
  Error: Invalid "from" provider "a/b/c/d"
  
  Invalid provider source string: The "source" attribute must be in the format
  "[hostname/][namespace/]name"
  
  Error: Invalid "to" provider "-x-"
  
  Invalid provider type "-x-" in source "-x-": must contain only letters,
  digits, and dashes, and may not use leading or trailing dashes
  [1]
  $ cairn state replace-provider one
  Exactly two arguments expected.
  
  Usage: cairn [global options] state replace-provider [options] FROM_PROVIDER_FQN TO_PROVIDER_FQN
  
    Replace provider for resources in the Terraform state.
  
  Options:
  
    -auto-approve           Skip interactive approval.
  
    -lock=false             Don't hold a state lock during the operation. This is
                            dangerous if others might concurrently run commands
                            against the same workspace.
  
    -lock-timeout=0s        Duration to retry a state lock.
  
    -ignore-remote-version  A rare option used for the remote backend only. See
                            the remote backend documentation for more information.
  
    -state, state-out, and -backup are legacy options supported for the local
    backend only. For more information, see the local backend's documentation.
  [2]
