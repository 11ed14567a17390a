Root outputs of collection types (list(string) from a typed variable, a
tuple) print as Terraform prints them after apply and from `cairn output`.

  $ cairn apply -auto-approve | sed -n '/^Outputs:/,$p'
  Outputs:
  
  members = tolist([
    "a",
    "b",
  ])
  t = [
    "x",
    "y",
  ]
  $ cairn output members
  tolist([
    "a",
    "b",
  ])
  $ cairn output -json members
  ["a","b"]
