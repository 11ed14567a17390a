Ephemeral root variables with a saved plan (Terraform 1.10+): the plan
file records that var.token was set, never its value, and `apply
PLANFILE` must be given it again (-var, -var-file, TF_VAR_ or a .tfvars
file); an ephemeral variable not set at plan must stay unset; a
non-ephemeral one keeps the plan's value: changing it with -var or
-var-file is an error, from the environment a warning, and giving the
same value is fine.

  $ cairn plan -var token=s3cret -out=p -no-color | tail -3
  
  To perform exactly these actions, run the following command to apply:
      cairn apply "p"
  $ grep -c s3cret p
  0
  [1]
  $ cairn show -json p | python3 -c '
  > import json,sys
  > print(sorted(json.load(sys.stdin)["variables"].items()))'
  [('region', {'value': 'eu'})]
  $ cairn apply -no-color p
  
  Error: No value for required variable
  
  The ephemeral input variable "token" was set during the plan phase, and so
  must also be set during the apply phase.
  [1]
  $ cairn apply -no-color -var token=s3cret -var opt=x p
  
  Error: Ephemeral variable was not set during planning
  
  The ephemeral input variable "opt" was not set during the planning phase, and
  so must remain unset during the apply phase.
  [1]
  $ printf 'token = null\n' > n.tfvars && cairn apply -no-color -var-file=n.tfvars p
  
  Error: Ephemeral variable must be set for apply
  
  The ephemeral input variable "token" was set during the planning phase, and
  so must be set again during the apply phase.
  [1]
  $ cairn apply -no-color -var token=s3cret -var region=us p
  
  Error: Can't change variable when applying a saved plan
  
  The variable region cannot be set using the -var and -var-file options when
  applying a saved plan file, because a saved plan includes the variable values
  that were set when it was created. The saved plan specifies "eu" as the value
  whereas during apply the value "us" was set by a CLI argument. To declare an
  ephemeral variable which is not saved in the plan file, use ephemeral = true.
  [1]
  $ printf 'region = "us"\n' > r.tfvars && cairn apply -no-color -var token=s3cret -var-file=r.tfvars p
  
  Error: Can't change variable when applying a saved plan
  
  The variable region cannot be set using the -var and -var-file options when
  applying a saved plan file, because a saved plan includes the variable values
  that were set when it was created. The saved plan specifies "eu" as the value
  whereas during apply the value "us" was set by a .tfvars file passed through
  -var-file argument. To declare an ephemeral variable which is not saved in
  the plan file, use ephemeral = true.
  [1]

An environment variable with another value is ignored with a warning;
the token given at apply reaches the configuration.

  $ TF_VAR_token=s3cret TF_VAR_region=us cairn apply -no-color p
  null_resource.a: Creating...
  null_resource.a: Provisioning with 'local-exec'...
  null_resource.a (local-exec): (output suppressed due to ephemeral value in config)
  null_resource\.a: Creation complete after \d+s \[id=\d+\] (re)
  
  Warning: Ignoring variable when applying a saved plan
  
  The variable region cannot be overriden when applying a saved plan file,
  because a saved plan includes the variable values that were set when it was
  created. The saved plan specifies "eu" as the value whereas during apply the
  value "us" was set by an environment variable. To declare an ephemeral
  variable which is not saved in the plan file, use ephemeral = true.
  
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  $ cat token.txt; echo
  s3cret
  $ cairn state show null_resource.a | grep region
          "region" = "eu"

The same value again is not a change; the apply-time token need not be
the plan's.

  $ cairn plan -var token=s3cret -var region=ap -out=p2 > /dev/null; echo "exit $?"
  exit 0
  $ cairn apply -no-color -var token=other -var region=ap p2 | tail -1
  Apply complete! Resources: 1 added, 0 changed, 1 destroyed.
  $ cat token.txt; echo
  other
