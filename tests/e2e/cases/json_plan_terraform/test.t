Terraform's JSON plan: prior_state holds the root outputs known at plan
time (with its format_version) even when the state is empty;
version_constraint joins required_providers with the provider block's
deprecated version argument; resource_changes follow
addrs.AbsResourceInstance.Less (x[2] before x[10], the root before
module.m), and so does the human plan (issue 15 point 11).

  $ cairn init > /dev/null
  $ cairn plan -no-color -out p.tfplan 2>&1 | grep '^  #'
    # null_resource.x[0] will be created
    # null_resource.x[1] will be created
    # null_resource.x[2] will be created
    # null_resource.x[3] will be created
    # null_resource.x[4] will be created
    # null_resource.x[5] will be created
    # null_resource.x[6] will be created
    # null_resource.x[7] will be created
    # null_resource.x[8] will be created
    # null_resource.x[9] will be created
    # null_resource.x[10] will be created
    # module.m.random_id.r will be created
  $ cairn show -json p.tfplan | python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps(d["prior_state"], sort_keys=True)); print(json.dumps(d["configuration"]["provider_config"], sort_keys=True)); print(" ".join(c["address"] for c in d["resource_changes"]))'
  \{"format_version": "1\.0", "terraform_version": "[^"]+", "values": \{"outputs": \{"known": \{"sensitive": false, "type": "string", "value": "hi"\}\}, "root_module": \{\}\}\} (re)
  {"module.m:random": {"full_name": "registry.terraform.io/hashicorp/random", "module_address": "module.m", "name": "random"}, "null": {"full_name": "registry.terraform.io/hashicorp/null", "name": "null", "version_constraint": ">= 3.1, ~> 3.0"}}
  null_resource.x[0] null_resource.x[1] null_resource.x[2] null_resource.x[3] null_resource.x[4] null_resource.x[5] null_resource.x[6] null_resource.x[7] null_resource.x[8] null_resource.x[9] null_resource.x[10] module.m.random_id.r
