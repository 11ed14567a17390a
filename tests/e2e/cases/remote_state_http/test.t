data "terraform_remote_state" with the http backend: configuration b
reads the root outputs that configuration a applied through the http
backend (tests/http/state_server.py), with one GET and no lock.

  $ sh $E2E_LIB/httpstate.sh
  $ cd a && cairn init -backend-config=../be.hcl > /dev/null && cairn apply -auto-approve > /dev/null
  $ mkdir b && P=$(cat port) && cat > b/main.tf <<X
  > data "terraform_remote_state" "a" {
  >   backend = "http"
  >   config = {
  >     address                   = "https://localhost:$P/state/main"
  >     client_ca_certificate_pem = file("../certs/ca.crt")
  >     retry_max                 = 0
  >   }
  > }
  > output "from_a" {
  >   value = data.terraform_remote_state.a.outputs.b
  > }
  > X
  $ rm srv/requests.log
  $ cd b && cairn apply -auto-approve | tail -3
  Outputs:
  
  from_a = "one"
  $ cat srv/requests.log
  GET /state/main 200

An argument the http backend does not have, a workspace it does not have,
and no state at the address:

  $ sed -i 's/retry_max .*/bucket = "x"/' b/main.tf
  $ cd b && cairn plan 2>&1 | sed -n '/Error/,$p'
  Error: Invalid backend configuration
  
    with data.terraform_remote_state.a,
    on main.tf line 1, in data "terraform_remote_state" "a":
     1: data "terraform_remote_state" "a" {
  
  The given configuration is not valid for backend "http": unsupported
  attribute "bucket".
  $ sed -i 's/bucket = "x"/retry_max = 0/; s/backend = "http"/backend = "http"\n  workspace = "dev"/' b/main.tf
  $ cd b && cairn plan 2>&1 | sed -n '/Error/,$p'
  Error: Error loading state error
  
    with data.terraform_remote_state.a,
    on main.tf line 1, in data "terraform_remote_state" "a":
     1: data "terraform_remote_state" "a" {
  
  workspaces not supported: the http backend keeps only the "default" workspace
  ("dev" was asked for).
  $ sed -i '/workspace = "dev"/d; s|/state/main|/state/none|' b/main.tf
  $ cd b && cairn plan 2>&1 | sed -n '/Error/,$p'
  Error: Unable to find remote state
  
    with data.terraform_remote_state.a,
    on main.tf line 1, in data "terraform_remote_state" "a":
     1: data "terraform_remote_state" "a" {
  
  No stored state was found for the given workspace in the given backend.

  $ kill $(cat srv.pid)
