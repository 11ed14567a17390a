init with child modules: each local module is listed as Terraform's
installer does (depth first, calls by name, "KEY in DIR"), recorded in
.terraform/modules/modules.json, and the providers every module needs are
resolved and locked (each module maps its own local names).

  $ cd ok && cairn init
  
  Initializing the backend...
  Initializing modules...
  - app in shared
  - net in modules/net
  - net.sub in modules/net/sub
  
  Initializing provider plugins...
  - Using built-in hashicorp/local
  - Using built-in hashicorp/null
  - Using built-in hashicorp/random
  - Using built-in terraform.io/builtin/terraform
  
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
  $ cd ok && cat .terraform/modules/modules.json | python3 -m json.tool
  {
      "Modules": [
          {
              "Key": "",
              "Source": "",
              "Dir": "."
          },
          {
              "Key": "app",
              "Source": "./shared",
              "Dir": "shared"
          },
          {
              "Key": "net",
              "Source": "./modules/net",
              "Dir": "modules/net"
          },
          {
              "Key": "net.sub",
              "Source": "./sub",
              "Dir": "modules/net/sub"
          }
      ]
  }
  $ cd ok && cat .terraform.lock.hcl
  # This file is maintained automatically by "cairn init".
  # Manual edits may be lost in future updates.
  
  provider "registry.terraform.io/hashicorp/local" {
    builtin = true
  }
  
  provider "registry.terraform.io/hashicorp/null" {
    builtin = true
  }
  
  provider "registry.terraform.io/hashicorp/random" {
    builtin = true
  }
  
  provider "terraform.io/builtin/terraform" {
    builtin = true
  }
  $ cd ok && cairn init -get=false | head -4
  
  Initializing the backend...
  
  Initializing provider plugins...
  $ cd ok && cairn apply -auto-approve > /dev/null && cairn state list
  null_resource.root
  module.app[0].terraform_data.t
  module.app[1].terraform_data.t
  module.net.random_id.r
  module.net.module.sub.local_file.f

A registry source fails init with the loader's diagnostic; the modules
that could be loaded are still listed.

  $ cd bad && cairn init
  
  Initializing the backend...
  Initializing modules...
  - ok in here
  
  Error: Module source not supported
  
    on main.tf line 6, in module "consul":
     6:   source = "hashicorp/consul/aws"
  
  Module "consul" uses the source "hashicorp/consul/aws". cairn runs offline
  and loads modules only from local paths, which start with "./" or "../"; copy
  the module beside the configuration and refer to it by its path.
  [1]
