`cairn providers` prints the provider requirements as Terraform 1.9's
`terraform providers` does: the tree of modules (treeprint's layout) with
each module's providers and their version constraints (required_providers
and the deprecated provider-block `version`) in Terraform's canonical form
(getproviders.VersionConstraintsString: `>= 3.1` is `>= 3.1.0`, `= 2.5.1`
is `2.5.1`, `~> 3.0` keeps two parts, a combined constraint is deduplicated
and sorted by version, then operator), then the providers the state needs;
cairn sorts what Terraform prints in Go map order.  `cairn providers
schema -json` prints every needed provider's schema in Terraform's
jsonprovider format (issue 15 point 17).

  $ cp other.tfstate terraform.tfstate
  $ cairn providers
  
  Providers required by configuration:
  .
  ├── provider[registry.terraform.io/hashicorp/null] >= 3.1.0
  ├── provider[registry.terraform.io/hashicorp/random] ~> 3.0
  ├── provider[terraform.io/builtin/terraform]
  ├── module.a
  │   ├── provider[registry.terraform.io/hashicorp/local] 2.5.1
  │   └── module.inner
  │       └── provider[registry.terraform.io/hashicorp/random] >= 3.1.0, != 3.4.1, < 4.0.0
  └── module.b
      ├── provider[registry.terraform.io/hashicorp/local] 2.5.1
      └── module.inner
          └── provider[registry.terraform.io/hashicorp/random] >= 3.1.0, != 3.4.1, < 4.0.0
  
  Providers required by state:
  
      provider[registry.terraform.io/hashicorp/time]
  
  
  Warning: Version constraints inside provider configuration blocks are deprecated
  
    on main.tf line 10, in provider "null":
    10:   version = ">= 3.1"
  
  cairn ignores the version argument in provider blocks; use required_providers
  in the terraform block instead.
  $ cairn providers empty
  
  Error: No configuration files
  
  The directory empty contains no cairn configuration files.
  [1]
  $ cairn providers schema
  The `cairn providers schema` command requires the `-json` flag.
  
  Usage: cairn [global options] providers schema -json
  [1]
  $ cairn providers schema -json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["format_version"], sorted(d["provider_schemas"])); t=d["provider_schemas"]["terraform.io/builtin/terraform"]; print(json.dumps(t["resource_schemas"]["terraform_data"], sort_keys=False)); print(json.dumps(d["provider_schemas"]["registry.terraform.io/hashicorp/random"]["resource_schemas"]["random_id"]["block"]["attributes"]["byte_length"]))'
  1.0 ['registry.terraform.io/hashicorp/local', 'registry.terraform.io/hashicorp/null', 'registry.terraform.io/hashicorp/random', 'registry.terraform.io/hashicorp/time', 'terraform.io/builtin/terraform']
  {"version": 0, "block": {"attributes": {"id": {"type": "string", "description_kind": "plain", "computed": true}, "input": {"type": "dynamic", "description_kind": "plain", "optional": true}, "output": {"type": "dynamic", "description_kind": "plain", "computed": true}, "triggers_replace": {"type": "dynamic", "description_kind": "plain", "optional": true}}, "description_kind": "plain"}}
  {"type": "number", "description": "The number of random bytes to produce. The minimum value is 1, which produces eight bits of randomness.", "description_kind": "plain", "required": true}
