locals {
  inputs = {
    a = "x0"
    b = "x1"
  }
}

resource "terraform_data" "t" {
  for_each = local.inputs
  input    = each.value
}

moved {
  from = terraform_data.t[0]
  to   = terraform_data.t["a"]
}

moved {
  from = terraform_data.t[1]
  to   = terraform_data.t["b"]
}

output "inputs" {
  value = values(terraform_data.t)[*].input
}
