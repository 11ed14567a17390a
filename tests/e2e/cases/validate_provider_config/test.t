Terraform's validate walk asks each provider to validate its configuration
block (ValidateProviderConfig), with every reference unknown: a bad
argument shows at validate, not only at plan, and names the provider and
the block, as Terraform's InConfigBody does.

  $ cairn validate -no-color
  
  Error: Invalid URL scheme
  
    with provider["registry.terraform.io/hashicorp/tls"],
    on main.tf line 2, in provider "tls":
     2:   proxy {
  
  URL "not a url" expected to use scheme from ["http" "https" "socks5"], got:
  "not a url"
  [1]
  $ cairn plan -no-color
  
  Error: Invalid URL scheme
  
    with provider["registry.terraform.io/hashicorp/tls"],
    on main.tf line 2, in provider "tls":
     2:   proxy {
  
  URL "not a url" expected to use scheme from ["http" "https" "socks5"], got:
  "not a url"
  [1]

The walk sees every input unknown: a variable's value is checked at plan.

  $ cd unknown && cairn validate -no-color
  Success! The configuration is valid.
  
  $ cd unknown && cairn plan -no-color 2>&1 | grep -A2 '^Error'
  Error: Invalid URL scheme
  
    with provider["registry.terraform.io/hashicorp/tls"],
