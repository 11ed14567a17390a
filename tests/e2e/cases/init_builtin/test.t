Built-in providers only: no host configuration needed.

  $ cairn init
  
  Initializing the backend...
  
  Initializing provider plugins...
  - Using built-in hashicorp/null
  - Using built-in hashicorp/random
  
  cairn has created a lock file .terraform.lock.hcl to record the provider
  selections it made above. Include this file in your version control repository
  so that cairn can guarantee to make the same selections by default when
  you run "cairn init" in the future.
  
  cairn has been successfully initialized!
  
  You may now begin working with cairn. Try running "cairn plan" to see
  any changes that are required for your infrastructure. All cairn commands
  should now work.
  
  If you ever set or change modules or backend configuration for cairn,
  rerun this command to reinitialize your working directory. If you forget, other
  commands will detect it and remind you to do so if necessary.
  $ cat .terraform.lock.hcl
  # This file is maintained automatically by "cairn init".
  # Manual edits may be lost in future updates.
  
  provider "registry.terraform.io/hashicorp/null" {
    builtin = true
  }
  
  provider "registry.terraform.io/hashicorp/random" {
    builtin = true
  }
  $ cairn init -lockfile=readonly
  
  Initializing the backend...
  
  Initializing provider plugins...
  - Using built-in hashicorp/null
  - Using built-in hashicorp/random
  
  cairn has been successfully initialized!
  
  You may now begin working with cairn. Try running "cairn plan" to see
  any changes that are required for your infrastructure. All cairn commands
  should now work.
  
  If you ever set or change modules or backend configuration for cairn,
  rerun this command to reinitialize your working directory. If you forget, other
  commands will detect it and remind you to do so if necessary.

An unknown provider is refused with a hint.

  $ cat > more.tf <<'X'
  > resource "edge_device" "d" {}
  > X
  $ cairn init
  
  Initializing the backend...
  
  Initializing provider plugins...
  - Using built-in hashicorp/null
  - Using built-in hashicorp/random
  
  Error: Failed to query available provider packages
  
  Could not retrieve the list of available versions for provider
  registry.terraform.io/hashicorp/edge: cairn does not download providers, and
  this one is neither built in nor mapped to an endpoint by a host
  configuration (none found). To use a remote provider, add a section like this
  to ~/.config/cairn/cairn.ini:
  
  [provider "registry.terraform.io/hashicorp/edge"]
  endpoint = https://HOST:PORT/PATH
  [1]
