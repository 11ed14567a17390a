Values that do not convert to the declared type.

  $ echo 'var.port' | cairn console -var port=http
  
  Error: Invalid value for input variable
  
    on main.tf line 1, in variable "port":
     1: variable "port" {
  
  Unsuitable value for var.port set using -var="port=...": a number is
  required.
  
  Warning: Due to the problems above, some expressions may produce unexpected results.
  
  (known after apply)
  $ printf 'port = "http"\n' > bad.tfvars && echo 'var.port' | cairn console -var-file=bad.tfvars
  
  Error: Invalid value for input variable
  
    on bad.tfvars line 1:
     1: port = "http"
  
  The given value is not suitable for var.port declared at main.tf:1,1-16: a
  number is required.
  
  Warning: Due to the problems above, some expressions may produce unexpected results.
  
  (known after apply)
  $ printf 'port = 8080\ntoken = "x"\n' > secret.tfvars && echo 'var.port' | cairn console -var-file=secret.tfvars
  
  Error: Invalid value for input variable
  
    on main.tf line 13, in variable "token":
    13: variable "token" {
  
  The given value is not suitable for var.token, which is sensitive: a number
  is required. Invalid value defined at secret.tfvars:2,9-12.
  
  Warning: Due to the problems above, some expressions may produce unexpected results.
  
  8080

Validation rules.

  $ echo 'var.port' | cairn console -var port=80
  
  Error: Invalid value for variable
  
    on main.tf line 1, in variable "port":
     1: variable "port" {
      ├─────────────────
      │ var.port is 80
  
  The port must be above 1024.
  
  This was checked by the validation rule at main.tf:3,3-13.
  
  Warning: Due to the problems above, some expressions may produce unexpected results.
  
  80
  $ echo 'var.port' | TF_VAR_port=8080 cairn console
  8080

A non-nullable variable set to null takes its default.

  $ printf 'name = null\n' > null.tfvars && echo 'var.name' | cairn console -var port=8080 -var-file=null.tfvars
  "app"

Undeclared variables: an error on the command line, a warning in files
(two named, then a summary), ignored in the environment.

  $ echo 1 | cairn console -var nope=1
  
  Error: Value for undeclared variable
  
  A variable named "nope" was assigned on the command line, but the root module
  does not declare a variable of that name. To use this value, add a "variable"
  block to the configuration.
  [1]
  $ printf 'u1 = 1\nu2 = 2\nu3 = 3\nu4 = 4\n' > terraform.tfvars && echo 1 | TF_VAR_other=1 cairn console -var port=8080
  
  Warning: Value for undeclared variable
  
  The root module does not declare a variable named "u1" but a value was found
  in file "terraform.tfvars". If you meant to use this value, add a "variable"
  block to the configuration.
  
  To silence these warnings, use TF_VAR_... environment variables to provide
  certain "global" settings to all configurations in your organization. To
  reduce the verbosity of these warnings, use the -compact-warnings option.
  
  Warning: Value for undeclared variable
  
  The root module does not declare a variable named "u2" but a value was found
  in file "terraform.tfvars". If you meant to use this value, add a "variable"
  block to the configuration.
  
  To silence these warnings, use TF_VAR_... environment variables to provide
  certain "global" settings to all configurations in your organization. To
  reduce the verbosity of these warnings, use the -compact-warnings option.
  
  Warning: Values for undeclared variables
  
  In addition to the other similar warnings shown, 2 other variable(s) defined
  without being declared.
  1
  $ rm terraform.tfvars

Malformed options and files.

  $ echo 1 | cairn console -var port
  
  Error: Invalid -var option
  
  The given -var option "port" is not correctly specified. Must be a variable
  name and value separated by an equals sign, like -var="key=value".
  [1]
  $ echo 1 | cairn console -var 'port =8080'
  
  Error: Invalid -var option
  
  Variable name "port " is invalid due to trailing space. Did you mean
  -var="port=8080"?
  [1]
  $ echo 1 | cairn console -var-file=missing.tfvars
  
  Error: Failed to read variables file
  
  Given variables file missing.tfvars does not exist.
  [1]
  $ printf 'variable "port" {\n  default = 1\n}\n' > decl.tfvars && echo 1 | cairn console -var-file=decl.tfvars
  
  Error: Variable declaration in .tfvars file
  
    on decl.tfvars line 1:
     1: variable "port" {
  
  A .tfvars file is used to assign values to variables that have already been
  declared in .tf files, not to declare new variables. To declare variable
  "port", place this block in one of your .tf files, such as variables.tf.
  
  To set a value for this variable in decl.tfvars, use the definition syntax
  instead:
      port = <value>
  [1]
  $ printf 'port = max(1, 2)\n' > fn.tfvars && echo 1 | cairn console -var-file=fn.tfvars
  
  Error: Function calls not allowed
  
    on fn.tfvars line 1:
     1: port = max(1, 2)
  
  Functions may not be called here.
  [1]
  $ echo 1 | cairn console -var 'port=8080' -var 'ports=[1,'
  
  Error: Missing expression
  
    on <value for var.ports> line 1:
    (source code not available)
  
  Expected the start of an expression, but found the end of the file.
  [1]
  $ echo 1 | cairn console -var 'port=8080' -var 'ports=[var.port]'
  
  Error: Variables not allowed
  
    on <value for var.ports> line 1:
    (source code not available)
  
  Variables may not be used here.
  [1]
