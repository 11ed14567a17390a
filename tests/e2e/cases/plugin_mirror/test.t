Plugins from a Terraform filesystem mirror (host configuration
`plugin_dir`): `cairn init` resolves the version constraints against what
the mirror holds, installs the package under .terraform/providers and
records version, constraints and hashes in the lock file as Terraform
does; later commands run that package only if its hash is one the lock
file records.  The mirror holds the real terraform-provider-null
(CAIRN_TESTPEER_NULL) as 3.2.0 unpacked, 3.1.1 as a .zip, 3.3.0 for
another platform only, and a directory that is not a version.

  $ python3 mkmirror.py "$CAIRN_TESTPEER_NULL/terraform-provider-null" "$HOME/m" > platform
  $ mkdir -p .config/cairn
  $ printf '[provider "hashicorp/null"]\nplugin_dir = %s/m\n' "$HOME" > .config/cairn/cairn.ini

"~> 3.1.0" allows 3.1.1 only, which comes from the .zip: unpacked into
.terraform/providers, recorded with its h1: (contents) and zh: (the zip
file) hashes.  h1.py computes both from the specification, as an oracle.

  $ cairn init | grep -e '^-' -e 'lock file' -e successfully
  - Finding hashicorp/null versions matching "~> 3.1.0"...
  - Installing hashicorp/null v3.1.1...
  - Installed hashicorp/null v3.1.1 (unauthenticated)
  cairn has created a lock file .terraform.lock.hcl to record the provider
  cairn has been successfully initialized!
  $ cat .terraform.lock.hcl
  # This file is maintained automatically by "cairn init".
  # Manual edits may be lost in future updates.
  
  provider "registry.terraform.io/hashicorp/null" {
    version     = "3.1.1"
    constraints = "~> 3.1.0"
    hashes = [
      "h1:[A-Za-z0-9+/]{43}=", (re)
      "zh:[0-9a-f]{64}", (re)
    ]
  }
  $ Z=m/registry.terraform.io/hashicorp/null/terraform-provider-null_3.1.1_$(cat platform).zip
  > python3 h1.py "$Z" | while read h; do grep -c "\"$h\"," .terraform.lock.hcl; done
  1
  1
  $ ls .terraform/providers/registry.terraform.io/hashicorp/null/3.1.1/$(cat platform)
  terraform-provider-null_v3.1.1_x5
  $ python3 h1.py .terraform/providers/registry.terraform.io/hashicorp/null/3.1.1/$(cat platform) | grep -c -f - .terraform.lock.hcl
  1

Apply through the plugin, and a plan that finds nothing to do.

  $ cairn apply -auto-approve 2>&1 | grep -e Creation -e 'Apply complete'
  null_resource.a: Creation complete after 0s \[id=\d+\] (re)
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  $ cairn plan 2>&1 | grep 'No changes'
  No changes. Your infrastructure matches the configuration.

A second init reuses the locked version, finds it installed, and changes
nothing.

  $ cp .terraform.lock.hcl lock.before
  $ cairn init | grep -e '^-'
  - Reusing previous version of hashicorp/null from the dependency lock file
  - Using previously-installed hashicorp/null v3.1.1
  $ cmp lock.before .terraform.lock.hcl && echo same
  same

The constraint changes to "~> 3.2": the locked 3.1.1 no longer satisfies
it, and only -upgrade selects again (the unpacked 3.2.0, linked).

  $ sed -i 's/~> 3.1.0/~> 3.2/' main.tf
  $ cairn init
  
  Initializing the backend...
  
  Initializing provider plugins...
  
  Error: Failed to query available provider packages
  
  Could not retrieve the list of available versions for provider
  hashicorp/null: locked provider registry.terraform.io/hashicorp/null 3.1.1
  does not match configured version constraint ~> 3.2; must use cairn init
  -upgrade to allow selection of new versions
  [1]
  $ cairn init -upgrade | grep -e '^-'
  - Finding hashicorp/null versions matching "~> 3.2"...
  - Installing hashicorp/null v3.2.0...
  - Installed hashicorp/null v3.2.0 (unauthenticated)
  $ cat .terraform.lock.hcl
  # This file is maintained automatically by "cairn init".
  # Manual edits may be lost in future updates.
  
  provider "registry.terraform.io/hashicorp/null" {
    version     = "3.2.0"
    constraints = "~> 3.2"
    hashes = [
      "h1:[A-Za-z0-9+/]{43}=", (re)
    ]
  }
  $ python3 h1.py m/registry.terraform.io/hashicorp/null/3.2.0/$(cat platform) | grep -c -f - .terraform.lock.hcl
  1
  $ readlink .terraform/providers/registry.terraform.io/hashicorp/null/3.2.0/$(cat platform) | sed "s|$HOME|HOME|; s|$(cat platform)|PLATFORM|"
  HOME/m/registry.terraform.io/hashicorp/null/3.2.0/PLATFORM
  $ cairn plan 2>&1 | grep 'No changes'
  No changes. Your infrastructure matches the configuration.

Between inits, a constraint the locked version no longer satisfies stops
every command.

  $ sed -i 's/~> 3.2/~> 3.1.0/' main.tf
  $ cairn plan
  
  Error: Inconsistent dependency lock file
  
  The following dependency selections recorded in the lock file are
  inconsistent with the current configuration:
    - provider registry.terraform.io/hashicorp/null: locked version selection 3.2.0 doesn't match the updated version constraints "~> 3.1.0"
  
  To update the locked dependency selections to match a changed configuration,
  run:
    cairn init -upgrade
  [1]
  $ sed -i 's/~> 3.1.0/~> 3.2/' main.tf

A tampered binary (one byte appended in the mirror, which the installed
link points to) is refused by every command, and by init.

  $ B=m/registry.terraform.io/hashicorp/null/3.2.0/$(cat platform)/terraform-provider-null_v3.2.0_x5
  > cp "$B" good.bin && printf x >> "$B"
  $ cairn plan
  
  Error: Required plugins are not installed
  
  The installed provider plugins are not consistent with the packages selected
  in the dependency lock file:
    - registry.terraform.io/hashicorp/null: the cached package for registry.terraform.io/hashicorp/null 3.2.0 (in .terraform/providers) does not match any of the checksums recorded in the dependency lock file
  
  cairn uses external plugins to integrate with a variety of different
  infrastructure services. To download the plugins required for this
  configuration, run:
    cairn init
  [1]
  $ cairn init
  
  Initializing the backend...
  
  Initializing provider plugins...
  - Reusing previous version of hashicorp/null from the dependency lock file
  
  Error: Failed to install provider
  
  Error while installing hashicorp/null v3.2.0: the local package for
  registry.terraform.io/hashicorp/null 3.2.0 doesn't match any of the checksums
  previously recorded in the dependency lock file (this might be because the
  available checksums are for packages targeting different platforms); for more
  information:
  https://developer.hashicorp.com/terraform/language/files/dependency-lock#checksum-verification
  [1]
  $ cp good.bin m/registry.terraform.io/hashicorp/null/3.2.0/$(cat platform)/terraform-provider-null_v3.2.0_x5
  $ cairn plan 2>&1 | grep 'No changes'
  No changes. Your infrastructure matches the configuration.

The locked version missing from the mirror, and from .terraform/providers.

  $ mv m/registry.terraform.io/hashicorp/null/3.2.0 m.3.2.0
  $ cairn init > out 2>&1; echo "exit $?"; sed "s|$HOME|HOME|; s|$(cat platform)|PLATFORM|" out
  exit 1
  
  Initializing the backend...
  
  Initializing provider plugins...
  - Reusing previous version of hashicorp/null from the dependency lock file
  
  Error: Failed to install provider
  
  Error while installing hashicorp/null v3.2.0: provider
  registry.terraform.io/hashicorp/null 3.2.0 is not available for PLATFORM
  in HOME/m
  $ mv .terraform/providers/registry.terraform.io/hashicorp/null/3.2.0 inst.3.2.0
  $ cairn plan
  
  Error: Required plugins are not installed
  
  The installed provider plugins are not consistent with the packages selected
  in the dependency lock file:
    - registry.terraform.io/hashicorp/null: there is no package for registry.terraform.io/hashicorp/null 3.2.0 cached in .terraform/providers
  
  cairn uses external plugins to integrate with a variety of different
  infrastructure services. To download the plugins required for this
  configuration, run:
    cairn init
  [1]
  $ mv m.3.2.0 m/registry.terraform.io/hashicorp/null/3.2.0 && mv inst.3.2.0 .terraform/providers/registry.terraform.io/hashicorp/null/3.2.0

No version in the mirror matches (3.3.0 is there for another platform
only), and a constraint that does not parse.

  $ sed -i 's/~> 3.2/>= 3.3.0/' main.tf
  $ cairn init -upgrade
  
  Initializing the backend...
  
  Initializing provider plugins...
  - Finding hashicorp/null versions matching ">= 3.3.0"...
  
  Error: Failed to query available provider packages
  
  Could not retrieve the list of available versions for provider
  hashicorp/null: no available releases match the given constraints >= 3.3.0
  [1]
  $ sed -i 's/>= 3.3.0/~> three/' main.tf
  $ cairn init -upgrade
  
  Initializing the backend...
  
  Initializing provider plugins...
  
  Error: Invalid version constraint
  
    on main.tf line 3, in terraform:
     3:     null = {
     4:       source  = "hashicorp/null"
     5:       version = "~> three"
     6:     }
  
  The version constraint "~> three" for provider hashicorp/null is not valid:
  expected comma-separated terms such as "~> 3.2", ">= 1.0.0" or "!= 2.1.0".
  [1]
  $ sed -i 's/~> three/~> 3.2/' main.tf

A provider the lock file does not select yet.

  $ mv .terraform.lock.hcl lock.saved
  $ cairn plan
  
  Error: Inconsistent dependency lock file
  
  The following dependency selections recorded in the lock file are
  inconsistent with the current configuration:
    - provider registry.terraform.io/hashicorp/null: required by this configuration but no version is selected
  
  To make the initial dependency selections that will initialize the dependency
  lock file, run:
    cairn init
  [1]
  $ mv lock.saved .terraform.lock.hcl

`[defaults] plugin_dir` serves a provider that is neither built in nor
has a section: here the same mirror's package under another address.

  $ mkdir -p other m/example.com/acme && cp -r m/registry.terraform.io/hashicorp/null m/example.com/acme/null
  $ printf '[defaults]\nplugin_dir = %s/m\n' "$HOME" >> .config/cairn/cairn.ini
  $ printf 'terraform {\n  required_providers {\n    null = { source = "example.com/acme/null", version = "3.2.0" }\n  }\n}\nresource "null_resource" "b" {}\n' > other/main.tf
  $ cairn -chdir=other init | grep -e '^-'
  - Finding example.com/acme/null versions matching "3.2.0"...
  - Installing example.com/acme/null v3.2.0...
  - Installed example.com/acme/null v3.2.0 (unauthenticated)
  $ grep -e provider -e version other/.terraform.lock.hcl
  provider "example.com/acme/null" {
    version     = "3.2.0"
  $ cairn -chdir=other apply -auto-approve 2>&1 | grep -e 'Apply complete'
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  $ cairn -chdir=other destroy -auto-approve 2>&1 | tail -1
  Destroy complete! Resources: 1 destroyed.

Destroy, and no plugin process is left behind.

  $ cairn destroy -auto-approve 2>&1 | tail -1
  Destroy complete! Resources: 1 destroyed.
  $ for p in $(pgrep '^terraform-prov'); do [ "$(readlink /proc/$p/cwd)" = "$PWD" ] && echo "left running: $p"; done; echo checked
  checked
