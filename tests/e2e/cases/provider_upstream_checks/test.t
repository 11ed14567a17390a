Terraform refuses a value for a computed-only attribute ("Value for
unconfigurable attribute"), at validate and at plan.

  $ cd ro && cairn validate -no-color
  
  Error: Value for unconfigurable attribute
  
    on main.tf line 3, in resource "random_id" "a":
     3:   hex         = "x"
  
  Can't configure a value for "hex": its value will be decided automatically
  based on the result of applying this configuration.
  [1]
  $ cd ro && cairn plan -no-color 2>&1 | grep -c 'Value for unconfigurable attribute'
  1

The deprecated `number` of random_string gives the plugin framework's
warning, on the attribute, at validate and at plan.

  $ cd dep && cairn validate -no-color
  
  Warning: Attribute Deprecated
  
    with random_string.s,
    on main.tf line 3, in resource "random_string" "s":
     3:   number = true
  
  **NOTE**: This is deprecated, use `numeric` instead.
  Success! The configuration is valid, but there were some validation warnings as shown above.
  
  $ cd dep && cairn plan -no-color 2>&1 | grep -E 'Warning|with random'
  Warning: Attribute Deprecated
    with random_string.s,

Upstream's validator on numeric: with every character set switched off,
validate and plan fail, instead of an apply failure.

  $ cd none && cairn validate -no-color
  
  Error: Invalid Attribute Combination
  
    with random_password.p,
    on main.tf line 6, in resource "random_password" "p":
     6:   numeric = false
  
  At least one attribute out of [special,upper,lower,numeric] must be specified
  as true
  [1]
  $ cd none && cairn plan -no-color > /dev/null 2>&1; echo "exit $?"
  exit 1

override_special counts characters: ten degree signs (20 bytes); and
random_shuffle with result_count = 0 gives an empty list.

  $ cd ok && cairn apply -auto-approve -no-color | grep -A3 '^Outputs'
  Outputs:
  
  deg = "°°°°°°°°°°"
  none = tolist([])
