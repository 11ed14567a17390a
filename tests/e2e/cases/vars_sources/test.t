Every source of root variable values, lowest precedence first: TF_VAR_
environment variables, terraform.tfvars, terraform.tfvars.json,
*.auto.tfvars[.json] in lexical order, then -var and -var-file in
command-line order.

  $ echo '[var.from_env, var.from_tfvars, var.from_json, var.from_auto, var.from_file, var.from_cli, var.with_default]' |
  > TF_VAR_from_env=environment TF_VAR_from_tfvars=environment TF_VAR_unused=1 cairn console -var-file=extra.tfvars -var from_cli=cli
  [
    "environment",
    "terraform.tfvars",
    "terraform.tfvars.json",
    "b.auto.tfvars.json",
    "extra.tfvars",
    "cli",
    "the default",
  ]

A later -var-file overrides an earlier -var.

  $ echo 'var.from_cli' | TF_VAR_from_env=e cairn console -var from_cli=cli -var-file extra.tfvars
  "extra.tfvars"

Text from the environment and -var is taken literally for primitive types
(and untyped variables), parsed as HCL for the others.

  $ echo '[var.count_of + 1, var.tags, var.untyped]' | TF_VAR_from_env=e cairn console -var 'tags={a = "b", c = "d"}' -var 'untyped=[1, 2]'
  [
    2,
    tomap({
      "a" = "b"
      "c" = "d"
    }),
    "[1, 2]",
  ]

The environment loses to terraform.tfvars.

  $ echo 'var.count_of' | TF_VAR_from_env=e TF_VAR_count_of=42 cairn console
  1

JSON variable files take strings literally; optional attributes get their
defaults.

  $ echo 'var.untyped' | TF_VAR_from_env=e cairn console
  "${not.a.template}"
  $ echo 'var.settings' | TF_VAR_from_env=e cairn console
  {
    "name" = "x"
    "size" = 3
  }
  $ echo 'var.settings' | TF_VAR_from_env=e cairn console -var 'settings={name = "y", size = null}'
  {
    "name" = "y"
    "size" = 3
  }

Console stubs unset required variables as unknown instead of failing.

  $ echo 'var.from_env' | cairn console
  (known after apply)
