A state naming its provider the pre-0.13 way (0.12's "provider.null", or
the legacy namespace "-" that Terraform 0.13 turned it into) is refused
with Terraform's "Invalid legacy provider address" error and its upgrade
advice, once per provider, not as an invalid source string (issue 15
point 16).  `state replace-provider` accepts the legacy "-" namespace as
its "from" address (Terraform's ParseProviderSourceString does), which is
the upgrade path; after it the state plans normally.  `init` loads the
state and refuses it the same way (Terraform's getProviders merges the
state's provider requirements into what it installs and rejects legacy
addresses there).

  $ cp legacy.tfstate terraform.tfstate
  $ cairn init -no-color
  
  Initializing the backend...
  
  Error: Invalid legacy provider address
  
  This configuration or its associated state refers to the unqualified provider
  "null".
  
  You must complete the Terraform 0.13 upgrade process before upgrading to
  later versions.
  [1]
  $ cairn plan -no-color
  
  Error: Invalid legacy provider address
  
  This configuration or its associated state refers to the unqualified provider
  "null".
  
  You must complete the Terraform 0.13 upgrade process before upgrading to
  later versions.
  [1]
  $ cp legacy013.tfstate terraform.tfstate
  $ cairn apply -no-color -auto-approve
  
  Error: Invalid legacy provider address
  
  This configuration or its associated state refers to the unqualified provider
  "null".
  
  You must complete the Terraform 0.13 upgrade process before upgrading to
  later versions.
  [1]
  $ cairn state replace-provider -auto-approve example.com/-/null hashicorp/null
  
  Error: Invalid "from" provider "example.com/-/null"
  
  Invalid provider namespace: The legacy provider namespace "-" can be used
  only with hostname registry.terraform.io.
  [1]
  $ cairn state replace-provider -auto-approve -- -/null hashicorp/null > /dev/null
  $ cairn init -no-color | grep -e Using -e successfully
  - Using built-in hashicorp/null
  cairn has been successfully initialized!
  $ cairn plan -no-color -refresh=false | grep -E '^(Plan|  #)'
    # null_resource.m will be destroyed
    # (because null_resource.m is not in configuration)
  Plan: 0 to add, 0 to change, 1 to destroy.

Terraform's init refuses a configuration that names a provider in the
legacy namespace as well (its source parser accepts "-/null" only to say
so), once per provider, before it installs anything.

  $ mkdir src && cd src && printf 'terraform {\n  required_providers {\n    null = { source = "-/null" }\n  }\n}\nresource "null_resource" "a" {}\n' > main.tf
  $ cd src && cairn init -no-color
  
  Initializing the backend...
  
  Error: Invalid legacy provider address
  
  This configuration or its associated state refers to the unqualified provider
  "null".
  
  You must complete the Terraform 0.13 upgrade process before upgrading to
  later versions.
  [1]
