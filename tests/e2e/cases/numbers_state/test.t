Numbers that a double does not hold exactly go into the state and come back
as the same numbers: no change is planned after apply (it used to be a
change on every plan), a literal keeps every digit as Terraform's 512-bit
numbers do, and a computed number is shown with 15 significant digits.

  $ cairn apply -auto-approve -no-color | sed -n '/^Outputs/,$p'
  Outputs:
  
  n = {
    "big" = 12345678901234567890
    "digits" = 1.2345678901234567
    "product" = 0.15
    "root" = 1.4142135623731
    "sum" = 0.3
    "third" = 0.333333333333333
  }
  $ cairn plan -no-color -detailed-exitcode | tail -3
  
  cairn has compared your real infrastructure against your configuration and
  found no differences, so no changes are needed.
  $ grep -A9 '"n": {' terraform.tfstate | head -10
      "n": {
        "value": {
          "big": 12345678901234567890,
          "digits": 1.2345678901234567,
          "product": 0.15,
          "root": 1.4142135623731,
          "sum": 0.3,
          "third": 0.333333333333333
        },
        "type": [

A state written by Terraform holds 0.1 + 0.2 as 0.3 and 1/3 with all of
its 512-bit digits: both are the numbers cairn computes.

  $ sed -i 's/0.333333333333333/0.3333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333/' terraform.tfstate
  $ cairn plan -no-color -detailed-exitcode | tail -1
  found no differences, so no changes are needed.
