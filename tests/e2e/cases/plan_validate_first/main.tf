resource "terraform_data" "a" {
  input = "abc"
}

output "ok" {
  value = "fine"
}
