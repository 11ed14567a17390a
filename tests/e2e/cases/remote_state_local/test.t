data "terraform_remote_state" with the local backend: configuration b
reads the root outputs that configuration a applied into its state.
Relative paths start from the working directory (-chdir), as Terraform's
local backend has them.

  $ cairn -chdir=a apply -auto-approve > /dev/null
  $ cairn -chdir=b apply -auto-approve
  data.terraform_remote_state.x: Reading...
  data.terraform_remote_state.x: Read complete after 0s
  
  Changes to Outputs:
    + extra         = "from-defaults"
    + https         = 443
    + name          = "app-prod"
    + secret_length = 7
    + team          = "infra"
    + zone          = "z1"
  
  You can apply this plan to save these new output values to the cairn state,
  without changing any real infrastructure.
  
  Apply complete! Resources: 0 added, 0 changed, 0 destroyed.
  
  Outputs:
  
  extra = "from-defaults"
  https = 443
  name = "app-prod"
  secret_length = 7
  team = "infra"
  zone = "z1"

Outputs keep their types (a list, an object; the sensitive one is a plain
string in the data source, as in Terraform); defaults fill what the state
lacks and lose to what it has.

  $ cairn -chdir=b output -json | python3 -m json.tool --sort-keys
  {
      "extra": {
          "sensitive": false,
          "type": "string",
          "value": "from-defaults"
      },
      "https": {
          "sensitive": false,
          "type": "number",
          "value": 443
      },
      "name": {
          "sensitive": false,
          "type": "string",
          "value": "app-prod"
      },
      "secret_length": {
          "sensitive": false,
          "type": "number",
          "value": 7
      },
      "team": {
          "sensitive": false,
          "type": "string",
          "value": "infra"
      },
      "zone": {
          "sensitive": false,
          "type": "string",
          "value": "z1"
      }
  }
  $ cairn -chdir=b state show data.terraform_remote_state.x
  # data.terraform_remote_state.x:
  data "terraform_remote_state" "x" {
      backend  = "local"
      config   = {
          path          = "../a/terraform.tfstate"
          workspace_dir = "../a/terraform.tfstate.d"
      }
      defaults = {
          extra = "from-defaults"
          name  = "unused"
          zone  = "z1"
      }
      outputs  = {
          extra  = "from-defaults"
          name   = "app-prod"
          ports  = [
              80,
              443,
          ]
          secret = "hunter2"
          tags   = {
              env  = "prod"
              team = "infra"
          }
          zone   = "z1"
      }
  }

A workspace of a: terraform.tfstate.d/NAME/terraform.tfstate under
workspace_dir (config.path applies to the default workspace only, as with
the local backend).

  $ cairn -chdir=a workspace new staging > /dev/null
  $ cairn -chdir=a apply -auto-approve -var env=staging > /dev/null
  $ cairn -chdir=b apply -auto-approve -var workspace=staging 2>&1 | tail -6
  extra = "from-defaults"
  https = 443
  name = "app-staging"
  secret_length = 7
  team = "infra"
  zone = "z1"

A workspace that does not exist, and a state file that does not exist:
Terraform's "Unable to find remote state".

  $ cairn -chdir=b plan -var workspace=nope
  data.terraform_remote_state.x: Reading...
  
  Planning failed. cairn encountered an error while generating this plan.
  
  
  Error: Unable to find remote state
  
    with data.terraform_remote_state.x,
    on main.tf line 9, in data "terraform_remote_state" "x":
     9: data "terraform_remote_state" "x" {
  
  No stored state was found for the given workspace in the given backend.
  [1]
  $ cairn -chdir=b plan -var path=../missing/terraform.tfstate
  data.terraform_remote_state.x: Reading...
  
  Planning failed. cairn encountered an error while generating this plan.
  
  
  Error: Unable to find remote state
  
    with data.terraform_remote_state.x,
    on main.tf line 9, in data "terraform_remote_state" "x":
     9: data "terraform_remote_state" "x" {
  
  No stored state was found for the given workspace in the given backend.
  [1]

A path that is a directory, and a file that is not a state:

  $ cairn -chdir=b plan -var path=../a
  data.terraform_remote_state.x: Reading...
  
  Planning failed. cairn encountered an error while generating this plan.
  
  
  Error: Error loading state error
  
    with data.terraform_remote_state.x,
    on main.tf line 9, in data "terraform_remote_state" "x":
     9: data "terraform_remote_state" "x" {
  
  error loading the remote state: ../a: Is a directory
  [1]
  $ echo '{"version": 4, "outputs": [' > b/broken.tfstate
  $ cairn -chdir=b plan -var path=broken.tfstate
  data.terraform_remote_state.x: Reading...
  
  Planning failed. cairn encountered an error while generating this plan.
  
  
  Error: Failed to load state
  
    with data.terraform_remote_state.x,
    on main.tf line 9, in data "terraform_remote_state" "x":
     9: data "terraform_remote_state" "x" {
  
  error loading the remote state: broken.tfstate: Invalid JSON: unexpected end
  of input
  [1]

Backends other than local, and settings local does not have:

  $ cat > b/other.tf <<'TF'
  > data "terraform_remote_state" "s3" {
  >   backend = "s3"
  >   config = { bucket = "b" }
  > }
  > data "terraform_remote_state" "bogus" {
  >   backend = "bogus"
  > }
  > data "terraform_remote_state" "extra" {
  >   backend = "local"
  >   config = { path = "../a/terraform.tfstate", bucket = "b" }
  > }
  > TF
  $ cairn -chdir=b plan
  data.terraform_remote_state.x: Reading...
  data.terraform_remote_state.x: Read complete after 0s
  data.terraform_remote_state.s3: Reading...
  data.terraform_remote_state.bogus: Reading...
  data.terraform_remote_state.extra: Reading...
  
  Changes to Outputs:
    ~ name          = "app-staging" -> "app-prod"
  
  You can apply this plan to save these new output values to the cairn state,
  without changing any real infrastructure.
  
  Error: Invalid backend configuration
  
    with data.terraform_remote_state.s3,
    on other.tf line 1, in data "terraform_remote_state" "s3":
     1: data "terraform_remote_state" "s3" {
  
  The backend type "s3" is not available in cairn's built-in terraform
  provider; only "local", "http" and "pg" are.
  
  Error: Invalid backend configuration
  
    with data.terraform_remote_state.bogus,
    on other.tf line 5, in data "terraform_remote_state" "bogus":
     5: data "terraform_remote_state" "bogus" {
  
  The backend type "bogus" is not available in cairn's built-in terraform
  provider; only "local", "http" and "pg" are.
  
  Error: Invalid backend configuration
  
    with data.terraform_remote_state.extra,
    on other.tf line 8, in data "terraform_remote_state" "extra":
     8: data "terraform_remote_state" "extra" {
  
  The given configuration is not valid for backend "local": unsupported
  attribute "bucket".
  [1]
