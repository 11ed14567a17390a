Ephemeral resources are opened in the plan and again in the apply, closed
after each walk, and never reach the plan file or the state.

  $ cairn init > /dev/null
  $ cairn plan -out=p.bin
  ephemeral.random_password.db: Opening...
  ephemeral\.random_password\.db: Opening complete after \d+s (re)
  ephemeral.local_command.seen: Opening...
  ephemeral\.local_command\.seen: Opening complete after \d+s (re)
  ephemeral.tls_private_key.k: Opening...
  ephemeral\.tls_private_key\.k: Opening complete after \d+s (re)
  ephemeral.random_password.db: Closing...
  ephemeral\.random_password\.db: Closing complete after \d+s (re)
  ephemeral.local_command.seen: Closing...
  ephemeral\.local_command\.seen: Closing complete after \d+s (re)
  ephemeral.tls_private_key.k: Closing...
  ephemeral\.tls_private_key\.k: Closing complete after \d+s (re)
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # tls_cert_request.r will be created
    + resource "tls_cert_request" "r" {
        + cert_request_pem           = (known after apply)
        + id                         = (known after apply)
        + key_algorithm              = (known after apply)
        + private_key_pem_wo         = (write-only attribute)
        + private_key_pem_wo_version = 1
  
        + subject {
            + common_name = "example"
          }
      }
  
  Plan: 1 to add, 0 to change, 0 to destroy.
  
  Changes to Outputs:
    + key_algorithm = (known after apply)
    + nulled        = true
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Saved the plan to: p.bin
  
  To perform exactly these actions, run the following command to apply:
      cairn apply "p.bin"
  $ cairn show -json p.bin | grep -c -F "$(cat seen.txt)"
  0
  [1]
  $ cairn apply p.bin
  ephemeral.random_password.db: Opening...
  ephemeral\.random_password\.db: Opening complete after \d+s (re)
  ephemeral.local_command.seen: Opening...
  ephemeral\.local_command\.seen: Opening complete after \d+s (re)
  ephemeral.tls_private_key.k: Opening...
  ephemeral\.tls_private_key\.k: Opening complete after \d+s (re)
  tls_cert_request.r: Creating...
  tls_cert_request\.r: Creation complete after \d+s \[id=[0-9a-f]{40}\] (re)
  ephemeral.random_password.db: Closing...
  ephemeral\.random_password\.db: Closing complete after \d+s (re)
  ephemeral.local_command.seen: Closing...
  ephemeral\.local_command\.seen: Closing complete after \d+s (re)
  ephemeral.tls_private_key.k: Closing...
  ephemeral\.tls_private_key\.k: Closing complete after \d+s (re)
  
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  
  Outputs:
  
  key_algorithm = "ED25519"
  nulled = true
  $ grep -c -F "$(cat seen.txt)" terraform.tfstate
  0
  [1]
  $ grep -c ephemeral terraform.tfstate
  0
  [1]
  $ grep '"private_key_pem_wo"' terraform.tfstate
              "private_key_pem_wo": null,
                  "value": "private_key_pem_wo"

The JSON UI reports the operations as Terraform's ephemeral_op_* messages.

  $ cairn plan -json | grep ephemeral_op_ | sed 's/"@timestamp":"[^"]*",//' | head -2
  {"@level":"info","@message":"ephemeral.random_password.db: Opening...","@module":"terraform.ui","hook":{"resource":{"addr":"ephemeral.random_password.db","module":"","resource":"ephemeral.random_password.db","implied_provider":"random","resource_type":"random_password","resource_name":"db","resource_key":null},"action":"open"},"type":"ephemeral_op_start"}
  \{"@level":"info","@message":"ephemeral\.random_password\.db: Opening complete after \d+s","@module":"terraform\.ui","hook":\{"resource":\{"addr":"ephemeral\.random_password\.db","module":"","resource":"ephemeral\.random_password\.db","implied_provider":"random","resource_type":"random_password","resource_name":"db","resource_key":null\},"action":"open","elapsed_seconds":\d+\},"type":"ephemeral_op_complete"\} (re)

Destroying opens them too: the provider configuration needs the password.

  $ cairn destroy -auto-approve | grep -e ephemeral -e Destroy | grep -v 'complete after'
  ephemeral.random_password.db: Opening...
  ephemeral.local_command.seen: Opening...
  ephemeral.tls_private_key.k: Opening...
  ephemeral.random_password.db: Closing...
  ephemeral.local_command.seen: Closing...
  ephemeral.tls_private_key.k: Closing...
  ephemeral.random_password.db: Opening...
  ephemeral.local_command.seen: Opening...
  ephemeral.tls_private_key.k: Opening...
  tls_cert_request\.r: Destroying\.\.\. \[id=[0-9a-f]{40}\] (re)
  ephemeral.random_password.db: Closing...
  ephemeral.local_command.seen: Closing...
  ephemeral.tls_private_key.k: Closing...
  Destroy complete! Resources: 1 destroyed.

Misuse gets Terraform's errors.

  $ cairn -chdir=misuse init > /dev/null
  $ cairn -chdir=misuse plan
  ephemeral.random_password.p: Opening...
  ephemeral\.random_password\.p: Opening complete after \d+s (re)
  ephemeral.random_password.p: Closing...
  ephemeral\.random_password\.p: Closing complete after \d+s (re)
  
  Planning failed. cairn encountered an error while generating this plan.
  
  
  Error: Ephemeral value not allowed
  
    on main.tf line 14, in output "leak":
    14:   value = ephemeral.random_password.p.bcrypt_hash
  
  This output value is not declared as returning an ephemeral value, so it
  cannot be set to a result derived from an ephemeral value.
  
  Error: Invalid use of ephemeral value
  
    with terraform_data.plain,
    on main.tf line 6, in resource "terraform_data" "plain":
     6:   input = ephemeral.random_password.p.result
  
  Ephemeral values are not valid for "input", because it is not a write-only
  attribute and must be persisted to state.
  
  Error: Invalid count argument
  
    on main.tf line 10, in resource "terraform_data" "counted":
    10:   count = length(ephemeral.random_password.p.result)
  
  The given "count" value is derived from an ephemeral value, which means that
  cairn cannot persist it between plan/apply rounds. Use only non-ephemeral
  values here.
  [1]
  $ cairn -chdir=mod init > /dev/null
  $ cairn -chdir=mod plan
  ephemeral.random_password.p: Opening...
  ephemeral\.random_password\.p: Opening complete after \d+s (re)
  ephemeral.random_password.p: Closing...
  ephemeral\.random_password\.p: Closing complete after \d+s (re)
  
  Planning failed. cairn encountered an error while generating this plan.
  
  
  Error: Ephemeral output not allowed
  
    on main.tf line 10, in output "eph":
    10: output "eph" {
  
  Ephemeral outputs are not allowed in context of a root module
  
  Error: Ephemeral value not allowed
  
    on main.tf line 3, in module "child":
     3:   plain  = ephemeral.random_password.p.result
  
  The input variable "plain" does not accept ephemeral values.
  [1]


An ephemeral root variable is ephemeral: a saved plan keeps only its
name, and applying it needs the value again (vars_ephemeral_saved_plan).

  $ cairn -chdir=vars init > /dev/null
  $ cairn -chdir=vars apply -auto-approve -var token=abc
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # terraform_data.run will be created
    + resource "terraform_data" "run" {
        + id = (known after apply)
      }
  
  Plan: 1 to add, 0 to change, 0 to destroy.
  
  Changes to Outputs:
    + token_is_ephemeral = true
  terraform_data.run: Creating...
  terraform_data.run: Provisioning with 'local-exec'...
  terraform_data.run (local-exec): (output suppressed due to ephemeral value in config)
  terraform_data.run (local-exec): (output suppressed due to ephemeral value in config)
  terraform_data\.run: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  
  Outputs:
  
  token_is_ephemeral = true
  $ grep -c abc vars/terraform.tfstate
  0
  [1]
  $ cairn -chdir=vars plan -var token=abc -out=p.bin > /dev/null; echo "exit $?"
  exit 0
  $ grep -c abc vars/p.bin
  0
  [1]
  $ cairn -chdir=vars apply -no-color p.bin
  
  Error: No value for required variable
  
  The ephemeral input variable "token" was set during the plan phase, and so
  must also be set during the apply phase.
  [1]
