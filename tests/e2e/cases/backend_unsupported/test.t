A backend type cairn does not implement is an error at init and at every
command that touches state, never a silent fallback to a local state file
(issue 18): two operators who believe they share a locked state must not
each get their own terraform.tfstate.

  $ cairn init
  
  Initializing the backend...
  
  Error: Unsupported backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn validate
  
  Error: Unsupported backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn plan
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn apply -auto-approve
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn destroy -auto-approve
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn refresh
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn import terraform_data.a some-id
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn output
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn show
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn taint terraform_data.a
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn untaint terraform_data.a
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn state list
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn state show terraform_data.a
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn state pull
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ echo '{"version":4,"serial":1,"lineage":"x","outputs":{},"resources":[]}' > s.json
  $ cairn state push s.json
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn state rm terraform_data.a
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn state mv terraform_data.a terraform_data.b
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn state replace-provider -auto-approve hashicorp/a hashicorp/b
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn force-unlock -force 0123
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn workspace list
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn workspace new dev
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn workspace select dev
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn workspace delete dev
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ echo 'terraform.workspace' | cairn console
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]

-state does not bypass the check either (Terraform's Meta.Backend runs first):

  $ cairn state list -state=other.tfstate
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]
  $ cairn plan -state=other.tfstate
  
  Error: Invalid backend type
  
    on main.tf line 2, in terraform:
     2:   backend "s3" {
  
  There is no backend type named "s3".
  [1]

Nothing was written:

  $ ls -A
  main.tf
  s.json

The same in JSON configuration:

  $ rm main.tf
  $ echo '{"terraform":{"backend":{"etcdv3":{}}}}' > main.tf.json
  $ cairn init
  
  Initializing the backend...
  
  Error: Unsupported backend type
  
    on main.tf.json line 1:
     1: {"terraform":{"backend":{"etcdv3":{}}}}
  
  There is no backend type named "etcdv3".
  [1]
  $ cairn output
  
  Error: Invalid backend type
  
    on main.tf.json line 1:
     1: {"terraform":{"backend":{"etcdv3":{}}}}
  
  There is no backend type named "etcdv3".
  [1]
