Terraform 1.14 actions with the built-in local provider's local_command
action (docs/actions.md): the plan lists what the changes trigger, apply
runs before_create actions before the object is created and after_create
ones after it (with the new object's values), and a no-change plan
afterwards invokes nothing.

  $ cairn plan -no-color | sed -n '/will be created/,$p' | grep -v '^ *[+}] \|^ *+ resource'
    # terraform_data.each["a"] will be created
      }
  
      # Actions to be invoked after this change in order:
      action "local_command" "greet" {
          config {
              arguments         = [
                  "-c",
                  "echo greet a in $(basename $PWD)",
              ]
              command           = "sh"
              working_directory = "sub"
          }
      }
  
  
    # terraform_data.each["b"] will be created
      }
  
      # Actions to be invoked after this change in order:
      action "local_command" "greet" {
          config {
              arguments         = [
                  "-c",
                  "echo greet b in $(basename $PWD)",
              ]
              command           = "sh"
              working_directory = "sub"
          }
      }
  
  
    # terraform_data.web will be created
      }
  
      # Actions to be invoked before this change in order:
      action "local_command" "note" {
          config {
              arguments = [
                  "before create",
              ]
              command   = "echo"
          }
      }
  
  
      # Actions to be invoked after this change in order:
      action "local_command" "report" {
          config {
              arguments   = [
                  "-c",
                  (known after apply),
              ]
              command     = "sh"
              environment = {
                  "GREETING" = "hello"
              }
              stdin       = "from stdin"
          }
      }
  
  
  Plan: 3 to add, 0 to change, 0 to destroy. Actions: 4 to invoke.
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Note: You didn't use the -out option to save this plan, so cairn can't
  guarantee to take exactly these actions if you run "cairn apply" now.
  $ cairn apply -auto-approve -no-color -parallelism=1 | grep -v 'Refreshing\|Creation complete'
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # terraform_data.each["a"] will be created
    + resource "terraform_data" "each" {
        + id     = (known after apply)
        + input  = "a"
        + output = (known after apply)
      }
  
      # Actions to be invoked after this change in order:
      action "local_command" "greet" {
          config {
              arguments         = [
                  "-c",
                  "echo greet a in $(basename $PWD)",
              ]
              command           = "sh"
              working_directory = "sub"
          }
      }
  
  
    # terraform_data.each["b"] will be created
    + resource "terraform_data" "each" {
        + id     = (known after apply)
        + input  = "b"
        + output = (known after apply)
      }
  
      # Actions to be invoked after this change in order:
      action "local_command" "greet" {
          config {
              arguments         = [
                  "-c",
                  "echo greet b in $(basename $PWD)",
              ]
              command           = "sh"
              working_directory = "sub"
          }
      }
  
  
    # terraform_data.web will be created
    + resource "terraform_data" "web" {
        + id     = (known after apply)
        + input  = "one"
        + output = (known after apply)
      }
  
      # Actions to be invoked before this change in order:
      action "local_command" "note" {
          config {
              arguments = [
                  "before create",
              ]
              command   = "echo"
          }
      }
  
  
      # Actions to be invoked after this change in order:
      action "local_command" "report" {
          config {
              arguments   = [
                  "-c",
                  (known after apply),
              ]
              command     = "sh"
              environment = {
                  "GREETING" = "hello"
              }
              stdin       = "from stdin"
          }
      }
  
  
  Plan: 3 to add, 0 to change, 0 to destroy. Actions: 4 to invoke.
  Action started: action.local_command.note (triggered by terraform_data.web)
  Action action.local_command.note (triggered by terraform_data.web): 
  
  before create
  
  
  Action complete: action.local_command.note (triggered by terraform_data.web)
  terraform_data.web: Creating...
  Action started: action.local_command.report (triggered by terraform_data.web)
  Action action.local_command.report (triggered by terraform_data.web): 
  
  hello one
  from stdin
  
  Action complete: action.local_command.report (triggered by terraform_data.web)
  terraform_data.each["a"]: Creating...
  Action started: action.local_command.greet["a"] (triggered by terraform_data.each["a"])
  Action action.local_command.greet["a"] (triggered by terraform_data.each["a"]): 
  
  greet a in sub
  
  
  Action complete: action.local_command.greet["a"] (triggered by terraform_data.each["a"])
  terraform_data.each["b"]: Creating...
  Action started: action.local_command.greet["b"] (triggered by terraform_data.each["b"])
  Action action.local_command.greet["b"] (triggered by terraform_data.each["b"]): 
  
  greet b in sub
  
  
  Action complete: action.local_command.greet["b"] (triggered by terraform_data.each["b"])
  
  Apply complete! Resources: 3 added, 0 changed, 0 destroyed. Actions: 4 invoked.
  $ cairn plan -no-color -detailed-exitcode | tail -n 3
  
  cairn has compared your real infrastructure against your configuration and
  found no differences, so no changes are needed.

An update triggers after_update; a false condition skips the trigger.

  $ cairn apply -auto-approve -no-color -var msg=two | grep '^Action\|^Apply'
  Action started: action.local_command.report (triggered by terraform_data.web)
  Action action.local_command.report (triggered by terraform_data.web): 
  Action complete: action.local_command.report (triggered by terraform_data.web)
  Apply complete! Resources: 0 added, 1 changed, 0 destroyed. Actions: 1 invoked.
  $ cairn apply -auto-approve -no-color -var msg=quiet | grep '^Action\|^Apply\|Plan:'
  Plan: 0 to add, 1 to change, 0 to destroy.
  Apply complete! Resources: 0 added, 1 changed, 0 destroyed.

-invoke plans and runs one action alone, with no resource change; an
instance key picks one instance of a repeated action.

  $ cairn plan -no-color -var msg=quiet -invoke=action.local_command.note | sed -n '/will invoke/,/^Plan/p'
  cairn will invoke the following action(s):
  
    # action.local_command.note will be invoked
      action "local_command" "note" {
          config {
              arguments = [
                  "before create",
              ]
              command   = "echo"
          }
      }
  
  Plan: 0 to add, 0 to change, 0 to destroy. Actions: 1 to invoke.
  $ cairn apply -auto-approve -no-color -var msg=quiet -invoke='action.local_command.greet["b"]' | grep -v '^ \|^$'
  cairn will invoke the following action(s):
  Plan: 0 to add, 0 to change, 0 to destroy. Actions: 1 to invoke.
  Action started: action.local_command.greet["b"] (triggered by CLI)
  Action action.local_command.greet["b"] (triggered by CLI): 
  greet b in sub
  Action complete: action.local_command.greet["b"] (triggered by CLI)
  Apply complete! Resources: 0 added, 0 changed, 0 destroyed. Actions: 1 invoked.
  $ cairn apply -auto-approve -json -var msg=quiet -invoke=action.local_command.note | python3 -c 'import json,sys
  > for l in sys.stdin:
  >     m = json.loads(l)
  >     if m["type"].startswith("action_"): print(m["type"], m["@message"].split("\n")[0], sorted(m["hook"]))'
  action_start Action started: action.local_command.note ['action', 'invoke']
  action_progress action.local_command.note -  ['action', 'invoke', 'message']
  action_complete Action complete: action.local_command.note ['action', 'invoke']
  $ cairn apply -auto-approve -no-color -invoke=action.local_command.nope
  
  Error: Action not found
  
  No action "local_command" "nope" is declared in the root module.
  [1]
  $ cairn apply -auto-approve -no-color -invoke=terraform_data.web
  
  Error: Invalid action address
  
  The -invoke option needs an action address such as action.TYPE.NAME or
  action.TYPE.NAME[KEY]; got "terraform_data.web".
  [1]
  $ cairn plan -no-color -invoke=action.local_command.note -target=terraform_data.web
  
  Error: Invalid combination of options
  
  The -invoke option cannot be used with -destroy, -refresh-only, -target or
  -replace.
  [1]

A failing action fails the apply with the provider's diagnostic; what was
applied before stays in the state.

  $ cairn apply -auto-approve -no-color -var msg=quiet -invoke=action.local_command.fail >out 2>err; echo "exit $?"
  exit 1
  $ grep '^Action\|^Apply' out
  Action started: action.local_command.fail (triggered by CLI)
  $ cat err
  
  Error: Command Execution Failed
  
    with action.local_command.fail,
    on main.tf line 57, in action "local_command" "fail":
    57: action "local_command" "fail" {
  
  The action received an unexpected error while attempting to execute the
  command.
  
  Commmand: /usr/bin/sh -c echo broken >&2; exit 3
  Command Error: broken
  
  State: exit status 3
  $ cairn state list
  terraform_data.each["a"]
  terraform_data.each["b"]
  terraform_data.web

Saved plans cannot carry invocations yet: a clear refusal.

  $ cairn plan -no-color -var msg=quiet -invoke=action.local_command.note -out=p.tfplan | tail -n 6
  
  Error: Cannot save a plan that invokes actions
  
  This plan invokes 1 action(s); cairn cannot write action invocations to a
  saved plan yet (docs/actions.md). Apply without a saved plan (cairn apply)
  instead.
              ]
              command   = "echo"
          }
      }
  
  Plan: 0 to add, 0 to change, 0 to destroy. Actions: 1 to invoke.
  $ test -e p.tfplan || echo "no plan file"
  no plan file

Misuse is diagnosed as Terraform 1.14 does: destroy events, unknown
events, duplicates, references that are no action, undeclared actions,
and actions referenced anywhere else.

  $ mkdir bad && cat > bad/main.tf <<'X'
  > resource "terraform_data" "a" {
  >   lifecycle {
  >     action_trigger {
  >       events  = [after_create, before_destroy, sometime, after_create]
  >       actions = [action.local_command.nope, terraform_data.a]
  >     }
  >     action_trigger {
  >       events  = []
  >       actions = []
  >     }
  >   }
  > }
  > action "local_command" "x" {
  >   count    = 1
  >   for_each = {}
  >   config {
  >     command = "true"
  >   }
  > }
  > X
  $ cairn -chdir=bad validate -no-color
  
  Error: Invalid destroy event used
  
    on main.tf line 4, in resource "terraform_data" "a":
     4:       events  = [after_create, before_destroy, sometime, after_create]
  
  The destroy events (before_destroy, after_destroy) are not supported as of
  right now. They will be supported in a future release.
  
  Error: Invalid "event" value sometime
  
    on main.tf line 4, in resource "terraform_data" "a":
     4:       events  = [after_create, before_destroy, sometime, after_create]
  
  The "event" argument supports the following values: before_create,
  after_create, before_update, after_update, before_destroy, after_destroy.
  
  Error: Duplicate "after_create" event
  
    on main.tf line 4, in resource "terraform_data" "a":
     4:       events  = [after_create, before_destroy, sometime, after_create]
  
  The event is already defined in this action_trigger block.
  
  Error: Reference to undeclared action
  
    on main.tf line 5, in resource "terraform_data" "a":
     5:       actions = [action.local_command.nope, terraform_data.a]
  
  An action "local_command" "nope" has not been declared in this module.
  
  Error: Invalid action argument inside action_triggers
  
    on main.tf line 5, in resource "terraform_data" "a":
     5:       actions = [action.local_command.nope, terraform_data.a]
  
  action_triggers.actions must only refer to actions in the current module.
  
  Error: No actions specified
  
    on main.tf line 7, in resource "terraform_data" "a":
     7:     action_trigger {
  
  At least one action must be specified for an action_trigger.
  
  Error: No events specified
  
    on main.tf line 7, in resource "terraform_data" "a":
     7:     action_trigger {
  
  At least one event must be specified for an action_trigger.
  
  Error: Invalid combination of "count" and "for_each"
  
    on main.tf line 15, in action "local_command" "x":
    15:   for_each = {}
  
  The "count" and "for_each" meta-arguments are mutually-exclusive, only one
  should be used.
  [1]
  $ cat > bad/main.tf <<'X'
  > output "o" {
  >   value = action.local_command.x
  > }
  > action "local_command" "x" {
  >   config {
  >     command = "definitely-not-a-command"
  >   }
  > }
  > resource "terraform_data" "t" {
  >   lifecycle {
  >     action_trigger {
  >       events  = [after_create]
  >       actions = [action.local_command.x]
  >     }
  >   }
  > }
  > X
  $ cairn -chdir=bad plan -no-color
  
  Error: Invalid reference to an action
  
    on main.tf line 2, in output "o":
     2:   value = action.local_command.x
  
  An action can be referenced only in the actions argument of a resource's
  action_trigger block (docs/actions.md).
  [1]
  $ sed -i '1,3d' bad/main.tf && cairn -chdir=bad plan -no-color 2>&1 | grep -A3 '^Error'
  Error: Command Lookup Failed
  
    on main.tf line 1, in action "local_command" "x":
     1: action "local_command" "x" {
  --
  Error: exec: "definitely-not-a-command": executable file not found in $PATH

The action's schema is listed by providers schema -json.

  $ cairn providers schema -json | python3 -c 'import json,sys; s=json.load(sys.stdin)["provider_schemas"]["registry.terraform.io/hashicorp/local"]["action_schemas"]; print(sorted(s), sorted(s["local_command"]["block"]["attributes"]))'
  ['local_command'] ['arguments', 'command', 'environment', 'stdin', 'working_directory']
