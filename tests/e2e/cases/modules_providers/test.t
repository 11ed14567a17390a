Providers and modules: a module without provider blocks inherits the
default configurations (the root's random, the implied local), a module may
configure its own provider; provider addresses in the state, provider_config
and provider_config_key in the JSON plan.

  $ cd ok && cairn plan -out=p.bin > /dev/null
  $ cd ok && cairn show -json p.bin | python3 "$E2E_LIB/modq.py" plan | sed -n '/^provider_config/,$p'
  provider_config:
    module.inherit:local {"full_name": "registry.terraform.io/hashicorp/local", "module_address": "module.inherit", "name": "local"}
    module.own:local {"full_name": "registry.terraform.io/hashicorp/local", "module_address": "module.own", "name": "local"}
    random {"full_name": "registry.terraform.io/hashicorp/random", "name": "random"}
  configuration:
    call inherit source="./inherit"
      resource local_file.f key=module.inherit:local
      resource random_integer.i key=random
    call own source="./own"
      resource local_file.f key=module.own:local
  $ cd ok && cairn apply p.bin > /dev/null && python3 "$E2E_LIB/modq.py" state && cat inherit.txt own.txt
  module.inherit.local_file.f module='module.inherit' provider=provider["registry.terraform.io/hashicorp/local"]
    key=null deps=[]
  module.inherit.random_integer.i module='module.inherit' provider=provider["registry.terraform.io/hashicorp/random"]
    key=null deps=[]
  module.own.local_file.f module='module.own' provider=module.own.provider["registry.terraform.io/hashicorp/local"]
    key=null deps=[]
  inheritedown configuration
  $ cd ok && cairn destroy -auto-approve | tail -1
  Destroy complete! Resources: 3 destroyed.

A module with its own provider configuration cannot be called with count,
for_each or depends_on.

  $ cd legacy && cairn plan
  
  Error: Module is incompatible with count, for_each, and depends_on
  
    on main.tf line 1, in module "own":
     1: module "own" {
  
  The module at module.own is a legacy module which contains its own local
  provider configurations, and so calls to it may not use the count, for_each,
  or depends_on arguments.
  
  If you also control the module "../ok/own", consider updating this module to
  instead expect provider configurations to be passed by its caller.
  [1]
