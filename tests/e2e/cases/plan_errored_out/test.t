Terraform saves a plan whose walk failed (plan -out with errors): the file
records errored: true, show -json renders it, apply refuses it, and the
command still exits 1.  The partial plan is rendered before the errors, as
Terraform's local backend does (opPlan: "Planning failed." when it holds no
changes to show); apply renders it only when it holds resource changes.  A refresh-only plan turns failed conditions into
warnings, and is planned, saved and exits 0 (issue 15 point 12).

  $ cairn apply -auto-approve -no-color > /dev/null
  $ cairn plan -no-color -var ok=false -out errored.tfplan 2>&1 | grep -v Refreshing
  
  Planning failed. cairn encountered an error while generating this plan.
  
  
  Error: Resource precondition failed
  
    on main.tf line 13, in resource "terraform_data" "b":
    13:       condition     = var.ok
      ├─────────────────
      │ var.ok is "false"
  
  Not ok.
  $ test -f errored.tfplan; echo $?
  0
  $ cairn show -json errored.tfplan | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["errored"], d["applyable"])'
  True False
  $ cairn apply -no-color errored.tfplan
  
  Error: Cannot apply incomplete plan
  
  cairn encountered an error when generating this plan, so it cannot be
  applied.
  [1]
  $ cairn plan -no-color -refresh-only -var ok=false -out refresh.tfplan
  terraform_data\.a: Refreshing state\.\.\. \[id=[-0-9a-f]+\] (re)
  terraform_data\.b: Refreshing state\.\.\. \[id=[-0-9a-f]+\] (re)
  
  No changes. Your infrastructure still matches the configuration.
  
  cairn has checked that the real remote objects still match the result of your
  most recent changes, and found no differences.
  
  Warning: Resource precondition failed
  
    on main.tf line 13, in resource "terraform_data" "b":
    13:       condition     = var.ok
      ├─────────────────
      │ var.ok is "false"
  
  Not ok.
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Saved the plan to: refresh.tfplan
  
  To perform exactly these actions, run the following command to apply:
      cairn apply "refresh.tfplan"
  $ cairn show -json refresh.tfplan | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["errored"])'
  False
  $ cairn plan -no-color -var ok=false; echo "exit $?"
  terraform_data\.a: Refreshing state\.\.\. \[id=[-0-9a-f]+\] (re)
  terraform_data\.b: Refreshing state\.\.\. \[id=[-0-9a-f]+\] (re)
  
  Planning failed. cairn encountered an error while generating this plan.
  
  
  Error: Resource precondition failed
  
    on main.tf line 13, in resource "terraform_data" "b":
    13:       condition     = var.ok
      ├─────────────────
      │ var.ok is "false"
  
  Not ok.
  exit 1
  $ cairn plan -no-color -var ok=false -var-file=nonexistent.tfvars; echo "exit $?"
  
  Error: Failed to read variables file
  
  Given variables file nonexistent.tfvars does not exist.
  exit 1
