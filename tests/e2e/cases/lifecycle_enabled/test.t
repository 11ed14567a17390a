OpenTofu's lifecycle { enabled = false }: the resource is as if not in the
configuration (an existing object is destroyed, references see null); an
unknown or non-boolean value is an error.

  $ cairn apply -auto-approve > /dev/null; cairn output x
  "v"
  $ cairn plan -var on=false -no-color | grep -E '^  #|^Plan'
    # terraform_data.x will be destroyed
    # (because terraform_data.x is not in configuration)
  Plan: 0 to add, 0 to change, 1 to destroy.
  $ cairn apply -auto-approve -var on=false > /dev/null; cairn output x
  "disabled"
  $ cairn state list
  $ cairn plan -var on=maybe -no-color 2>&1 | grep -A1 '^Error'
  Error: Invalid enabled argument
  
