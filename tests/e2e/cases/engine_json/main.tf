resource "terraform_data" "a" {
  input = "x"
}

output "out" {
  value = terraform_data.a.output
}
