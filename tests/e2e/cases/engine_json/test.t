-json on plan and apply streams Terraform's UI messages.

  $ cairn plan -json > plan.jsonl; echo "exit $?"
  exit 0
  $ sed -E 's/"@timestamp":"[^"]*"/"@timestamp":"T"/; s/"terraform":"[^"]*"/"terraform":"V"/; s/"@message":"cairn [^"]*"/"@message":"cairn V"/' plan.jsonl
  {"@level":"info","@message":"cairn V","@module":"terraform.ui","@timestamp":"T","terraform":"V","type":"version","ui":"1.2"}
  {"@level":"info","@message":"terraform_data.a: Plan to create","@module":"terraform.ui","@timestamp":"T","change":{"resource":{"addr":"terraform_data.a","module":"","resource":"terraform_data.a","implied_provider":"terraform","resource_type":"terraform_data","resource_name":"a","resource_key":null},"action":"create"},"type":"planned_change"}
  {"@level":"info","@message":"Plan: 1 to add, 0 to change, 0 to destroy.","@module":"terraform.ui","@timestamp":"T","changes":{"add":1,"change":0,"import":0,"remove":0,"operation":"plan"},"type":"change_summary"}
  {"@level":"info","@message":"Outputs: 1","@module":"terraform.ui","@timestamp":"T","outputs":{"out":{"sensitive":false,"action":"create"}},"type":"outputs"}
  $ cairn apply -json -auto-approve > apply.jsonl; echo "exit $?"
  exit 0
  $ sed -E 's/"@timestamp":"[^"]*"/"@timestamp":"T"/; s/"terraform":"[^"]*"/"terraform":"V"/; s/"@message":"cairn [^"]*"/"@message":"cairn V"/; s/[0-9a-f]{8}-[0-9a-f-]{27}/ID/g; s/"elapsed_seconds":[0-9]+/"elapsed_seconds":N/' apply.jsonl
  {"@level":"info","@message":"cairn V","@module":"terraform.ui","@timestamp":"T","terraform":"V","type":"version","ui":"1.2"}
  {"@level":"info","@message":"terraform_data.a: Plan to create","@module":"terraform.ui","@timestamp":"T","change":{"resource":{"addr":"terraform_data.a","module":"","resource":"terraform_data.a","implied_provider":"terraform","resource_type":"terraform_data","resource_name":"a","resource_key":null},"action":"create"},"type":"planned_change"}
  {"@level":"info","@message":"Plan: 1 to add, 0 to change, 0 to destroy.","@module":"terraform.ui","@timestamp":"T","changes":{"add":1,"change":0,"import":0,"remove":0,"operation":"plan"},"type":"change_summary"}
  {"@level":"info","@message":"Outputs: 1","@module":"terraform.ui","@timestamp":"T","outputs":{"out":{"sensitive":false,"action":"create"}},"type":"outputs"}
  {"@level":"info","@message":"terraform_data.a: Creating...","@module":"terraform.ui","@timestamp":"T","hook":{"resource":{"addr":"terraform_data.a","module":"","resource":"terraform_data.a","implied_provider":"terraform","resource_type":"terraform_data","resource_name":"a","resource_key":null},"action":"create"},"type":"apply_start"}
  {"@level":"info","@message":"terraform_data.a: Creation complete after 0s [id=ID]","@module":"terraform.ui","@timestamp":"T","hook":{"resource":{"addr":"terraform_data.a","module":"","resource":"terraform_data.a","implied_provider":"terraform","resource_type":"terraform_data","resource_name":"a","resource_key":null},"action":"create","id_key":"id","id_value":"ID","elapsed_seconds":N},"type":"apply_complete"}
  {"@level":"info","@message":"Apply complete! Resources: 1 added, 0 changed, 0 destroyed.","@module":"terraform.ui","@timestamp":"T","changes":{"add":1,"change":0,"import":0,"remove":0,"operation":"apply"},"type":"change_summary"}
  {"@level":"info","@message":"Outputs: 1","@module":"terraform.ui","@timestamp":"T","outputs":{"out":{"sensitive":false,"type":"string","value":"x"}},"type":"outputs"}
  $ cairn plan -json -detailed-exitcode | grep -o '"type":"[a-z_]*"'
  "type":"version"
  "type":"refresh_start"
  "type":"refresh_complete"
  "type":"change_summary"
  "type":"outputs"

Refreshing the prior objects during a plan streams refresh_start, with
the object's id in the message and the hook (Terraform's PreRefresh hook);
resource keys appear in the address.

  $ cat >> main.tf <<'TF'
  > resource "terraform_data" "n" {
  >   count = 2
  >   input = count.index
  > }
  > TF
  $ cairn apply -json -auto-approve > /dev/null; echo "exit $?"
  exit 0
  $ cairn plan -json | grep '"refresh_' | sed -E 's/"@timestamp":"[^"]*"/"@timestamp":"T"/; s/[0-9a-f]{8}-[0-9a-f-]{27}/ID/g'
  {"@level":"info","@message":"terraform_data.a: Refreshing state... [id=ID]","@module":"terraform.ui","@timestamp":"T","hook":{"resource":{"addr":"terraform_data.a","module":"","resource":"terraform_data.a","implied_provider":"terraform","resource_type":"terraform_data","resource_name":"a","resource_key":null},"id_key":"id","id_value":"ID"},"type":"refresh_start"}
  {"@level":"info","@message":"terraform_data.a: Refresh complete [id=ID]","@module":"terraform.ui","@timestamp":"T","hook":{"resource":{"addr":"terraform_data.a","module":"","resource":"terraform_data.a","implied_provider":"terraform","resource_type":"terraform_data","resource_name":"a","resource_key":null},"id_key":"id","id_value":"ID"},"type":"refresh_complete"}
  {"@level":"info","@message":"terraform_data.n[0]: Refreshing state... [id=ID]","@module":"terraform.ui","@timestamp":"T","hook":{"resource":{"addr":"terraform_data.n[0]","module":"","resource":"terraform_data.n[0]","implied_provider":"terraform","resource_type":"terraform_data","resource_name":"n","resource_key":0},"id_key":"id","id_value":"ID"},"type":"refresh_start"}
  {"@level":"info","@message":"terraform_data.n[0]: Refresh complete [id=ID]","@module":"terraform.ui","@timestamp":"T","hook":{"resource":{"addr":"terraform_data.n[0]","module":"","resource":"terraform_data.n[0]","implied_provider":"terraform","resource_type":"terraform_data","resource_name":"n","resource_key":0},"id_key":"id","id_value":"ID"},"type":"refresh_complete"}
  {"@level":"info","@message":"terraform_data.n[1]: Refreshing state... [id=ID]","@module":"terraform.ui","@timestamp":"T","hook":{"resource":{"addr":"terraform_data.n[1]","module":"","resource":"terraform_data.n[1]","implied_provider":"terraform","resource_type":"terraform_data","resource_name":"n","resource_key":1},"id_key":"id","id_value":"ID"},"type":"refresh_start"}
  {"@level":"info","@message":"terraform_data.n[1]: Refresh complete [id=ID]","@module":"terraform.ui","@timestamp":"T","hook":{"resource":{"addr":"terraform_data.n[1]","module":"","resource":"terraform_data.n[1]","implied_provider":"terraform","resource_type":"terraform_data","resource_name":"n","resource_key":1},"id_key":"id","id_value":"ID"},"type":"refresh_complete"}
