A unique secret, planted through a sensitive variable (terraform.tfvars), appears in no
command's output and in no file cairn writes, except the state (and its
journal and backup) and saved plans, where Terraform keeps it too, and
the commands that print values on purpose, as Terraform's do (output
NAME, output -raw/-json, state pull, show -json).  terraform_data is left
out: its output copies a sensitive input without the mark, and Terraform
does the same (hashicorp/terraform#35609, #38133), so cairn does too.

  $ mkdir logs
  $ cairn init > logs/all.log 2>&1
  $ cairn validate >> logs/all.log 2>&1
  $ cairn plan >> logs/all.log 2>&1
  $ cairn plan -json >> logs/all.log 2>&1
  $ cairn plan -out=saved.plan >> logs/all.log 2>&1
  $ cairn show saved.plan >> logs/all.log 2>&1
  $ cairn apply -auto-approve >> logs/all.log 2>&1
  $ cairn apply -auto-approve -json >> logs/all.log 2>&1
  $ cairn show >> logs/all.log 2>&1
  $ cairn state list >> logs/all.log 2>&1
  $ cairn state show null_resource.n >> logs/all.log 2>&1
  $ cairn output >> logs/all.log 2>&1
  $ cairn graph >> logs/all.log 2>&1
  $ echo 'var.secret' | cairn console >> logs/all.log 2>&1
  $ TF_LOG=trace CAIRN_LOG=trace cairn plan -var secret=Zq7-PLANTED-SECRET-4711 >> logs/all.log 2>&1
  $ cd bad && cairn validate >> ../logs/all.log 2>&1; cairn plan >> ../logs/all.log 2>&1; cd ..
  $ cairn destroy -auto-approve >> logs/all.log 2>&1
  $ grep -c 'sensitive' logs/all.log | grep -v '^0$' > /dev/null && echo redacted
  redacted
  $ grep -c 'Zq7-PLANTED' logs/all.log
  0
  [1]
  $ grep -rl 'Zq7-PLANTED' . | grep -v '^./logs/' | grep -v 'terraform.tfstate\|saved.plan\|terraform.tfvars' | sort
  $ grep -l 'Zq7-PLANTED' terraform.tfstate.backup saved.plan
  terraform.tfstate.backup
  saved.plan

The diagnostics name the values' kind, never the values (Terraform's
wording for the conversion functions):

  $ cd bad && cairn plan 2>&1 | grep -i 'sensitive'
  Invalid value for "v" parameter: cannot convert this sensitive string to
  Invalid value for "v" parameter: cannot convert this sensitive string to
  address: (sensitive value).
