variable "names" {
  default = { web = "80", db = "5432" }
}

resource "terraform_data" "c" {
  count = 2
  input = "c${count.index}"
}

resource "terraform_data" "e" {
  for_each = var.names
  input    = "${each.key}:${each.value}"
}

resource "terraform_data" "s" {
  for_each = toset([for t in terraform_data.c : t.input])
  input    = each.value
}

resource "terraform_data" "zero" {
  count = 0
}

output "c1" {
  value = terraform_data.c[1].output
}

output "keys" {
  value = keys(terraform_data.e)
}

output "db" {
  value = terraform_data.e["db"].output
}

output "count_len" {
  value = length(terraform_data.zero)
}
