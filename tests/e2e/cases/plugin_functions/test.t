Provider-defined functions served by a real plugin process, the Python
test plugin (tests/peers/pyprovider), over tfplugin5 and then tfplugin6:
provider::pytest::upper and provider::pytest::repeat called from a local,
a resource argument and outputs; an argument unknown at plan makes the
result unknown and apply calls it.  The calls go to a second,
unconfigured instance of the plugin, as Terraform starts one.  plan and
apply run validation first (docs/engine.md), which evaluates the local
with its known argument: upper('alpha') is called once more there.

  $ mkdir -p .config/cairn objects
  $ printf '[provider "cairn.test/test/pytest"]\nplugin = %s/terraform-provider-pytest\n' "$(cd "$TESTDIR/../../../peers/pyprovider" && pwd)" > .config/cairn/cairn.ini
  $ cairn init > /dev/null; echo "exit $?"
  exit 0
  $ cairn validate -no-color
  Success! The configuration is valid.
  
  $ PYPROVIDER_CALL_LOG=$PWD/calls.log cairn plan -no-color
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # pytest_thing.a will be created
    + resource "pytest_thing" "a" {
        + id     = (known after apply)
        + name   = "ALPHAALPHA"
        + serial = (known after apply)
        + size   = 2
      }
  
  Plan: 1 to add, 0 to change, 0 to destroy.
  
  Changes to Outputs:
    + id    = (known after apply)
    + name  = "ALPHAALPHA"
    + shout = "ALPHA"
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Note: You didn't use the -out option to save this plan, so cairn can't
  guarantee to take exactly these actions if you run "cairn apply" now.
  $ grep -c '^serving' calls.log; grep CallFunction calls.log | sort
  2
  CallFunction repeat 'ALPHA' 2
  CallFunction upper 'alpha'
  CallFunction upper 'alpha'
  $ cairn apply -auto-approve -no-color > out; echo "exit $?"
  exit 0
  $ cairn output -json | python3 -c 'import json,sys; print(sorted((k, v["value"]) for k, v in json.load(sys.stdin).items()))'
  [('id', 'THING-1'), ('name', 'ALPHAALPHA'), ('shout', 'ALPHA')]
  $ cairn plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0

The function errors, as Terraform words them: the plugin's error naming
an argument (FunctionError.function_argument) is "Invalid function
argument" for that parameter, one naming none is "Error in function
call"; the core's own checks (type, arity, null) come before the plugin
is asked.  (cairn validate checks these calls only at plan: see
docs/plugins.md.)

  $ cp bad.tf.txt bad.tf
  $ cairn plan -no-color 2>&1 | sed -n '/^Error/,$p'
  Error: Invalid function argument
  
    on bad.tf line 1, in output "neg":
     1: output "neg" { value = provider::pytest::repeat("x", -1) }
  
  Invalid value for "n" parameter: must be a whole number, not negative, got
  -1.
  
  Error: Error in function call
  
    on bad.tf line 2, in output "long":
     2: output "long" { value = provider::pytest::repeat("xy", 600) }
  
  Call to function "provider::pytest::repeat" failed: the result would be
  longer than 1000 characters.
  
  Error: Invalid function argument
  
    on bad.tf line 3, in output "type":
     3: output "type" { value = provider::pytest::repeat("x", "many") }
  
  Invalid value for "n" parameter: a number is required.
  
  Error: Not enough function arguments
  
    on bad.tf line 4, in output "few":
     4: output "few" { value = provider::pytest::repeat("x") }
  
  Function "provider::pytest::repeat" expects 2 argument(s). Missing value for
  "n".
  
  Error: Invalid function argument
  
    on bad.tf line 5, in output "null":
     5: output "null" { value = provider::pytest::upper(null) }
  
  Invalid value for "s" parameter: argument must not be null.
  $ rm bad.tf

The function signatures are in `cairn providers schema -json`, under the
provider (Terraform's jsonprovider "functions"); `cairn metadata functions
-json` lists only the built-in functions, as Terraform's does.

  $ cairn providers schema -json | python3 -c '
  > import json,sys
  > p = json.load(sys.stdin)["provider_schemas"]["cairn.test/test/pytest"]
  > print(json.dumps(p.get("functions"), sort_keys=True))'
  {"repeat": {"parameters": [{"name": "s", "type": "string"}, {"name": "n", "type": "number"}], "return_type": "string", "summary": "Repeats a string n times"}, "upper": {"parameters": [{"name": "s", "type": "string"}], "return_type": "string", "summary": "Upper-cases a string"}}
  $ cairn metadata functions -json | python3 -c '
  > import json,sys
  > print([k for k in json.load(sys.stdin)["function_signatures"] if "pytest" in k])'
  []

The same over tfplugin6.

  $ cairn destroy -auto-approve -no-color > /dev/null; echo "exit $?"
  exit 0
  $ printf '[provider "cairn.test/test/pytest"]\nplugin = %s/terraform-provider-pytest-v6\n' "$(cd "$TESTDIR/../../../peers/pyprovider" && pwd)" > .config/cairn/cairn.ini
  $ cairn init > /dev/null; echo "exit $?"
  exit 0
  $ PYPROVIDER_CALL_LOG=$PWD/calls6.log cairn apply -auto-approve -no-color > out; echo "exit $?"
  exit 0
  $ grep '^serving' calls6.log | sort -u; grep CallFunction calls6.log | sort
  serving tfplugin6 mtls
  CallFunction repeat 'ALPHA' 2
  CallFunction repeat 'ALPHA' 2
  CallFunction upper 'alpha'
  CallFunction upper 'alpha'
  CallFunction upper 'alpha'
  CallFunction upper 'thing-2'
  $ cairn output -json | python3 -c 'import json,sys; print(sorted((k, v["value"]) for k, v in json.load(sys.stdin).items()))'
  [('id', 'THING-2'), ('name', 'ALPHAALPHA'), ('shout', 'ALPHA')]
  $ cp bad.tf.txt bad.tf
  $ cairn plan -no-color 2>&1 | grep -A1 '^Error'
  Error: Invalid function argument
  
  --
  Error: Error in function call
  
  --
  Error: Invalid function argument
  
  --
  Error: Not enough function arguments
  
  --
  Error: Invalid function argument
  
