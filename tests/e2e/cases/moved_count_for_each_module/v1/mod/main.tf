resource "terraform_data" "t" {
  count = 2
  input = "x${count.index}"
}

output "inputs" {
  value = terraform_data.t[*].input
}
