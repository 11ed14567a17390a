An explicit providers map passes aliased configurations to a module (and
on to the module it calls): provider addresses in the state, and in the JSON
plan the passed configurations are not listed in provider_config while the
module's resources name the root's aliased configuration.

  $ cairn plan -out=p.bin > /dev/null
  $ cairn show -json p.bin | python3 "$E2E_LIB/modq.py" plan | sed -n '/^provider_config/,$p'
  provider_config:
    local {"full_name": "registry.terraform.io/hashicorp/local", "name": "local"}
    local.alt {"alias": "alt", "full_name": "registry.terraform.io/hashicorp/local", "name": "local"}
    random {"full_name": "registry.terraform.io/hashicorp/random", "name": "random"}
    random.alt {"alias": "alt", "full_name": "registry.terraform.io/hashicorp/random", "name": "random"}
  configuration:
    call aliased source="./mod" args=name
      resource local_file.f key=local.alt
      resource random_id.r key=random.alt
      variable name {}
      call inner source="./inner"
        resource random_integer.i key=random.alt
    call dflt source="./mod" args=name
      resource local_file.f key=local
      resource random_id.r key=random
      variable name {}
      call inner source="./inner"
        resource random_integer.i key=random
  $ cairn apply p.bin > /dev/null && python3 "$E2E_LIB/modq.py" state && cat dflt.txt aliased.txt
  module.aliased.local_file.f module='module.aliased' provider=provider["registry.terraform.io/hashicorp/local"].alt
    key=null deps=[]
  module.aliased.random_id.r module='module.aliased' provider=provider["registry.terraform.io/hashicorp/random"].alt
    key=null deps=[]
  module.aliased.module.inner.random_integer.i module='module.aliased.module.inner' provider=provider["registry.terraform.io/hashicorp/random"].alt
    key=null deps=[]
  module.dflt.local_file.f module='module.dflt' provider=provider["registry.terraform.io/hashicorp/local"]
    key=null deps=[]
  module.dflt.random_id.r module='module.dflt' provider=provider["registry.terraform.io/hashicorp/random"]
    key=null deps=[]
  module.dflt.module.inner.random_integer.i module='module.dflt.module.inner' provider=provider["registry.terraform.io/hashicorp/random"]
    key=null deps=[]
  dfltaliased
