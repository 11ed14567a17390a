terraform {
  backend "http" {
    retry_wait_min = 0
    retry_wait_max = 0
  }
}

resource "terraform_data" "a" {
  input = "one"
}

resource "terraform_data" "b" {
  input = terraform_data.a.output
}

output "b" {
  value = terraform_data.b.output
}
