resource "terraform_data" "a" {
  input = terraform_data.c.output
}

resource "terraform_data" "b" {
  input = terraform_data.a.output
}

resource "terraform_data" "c" {
  input = terraform_data.b.output
}

resource "terraform_data" "free" {}
