terraform {
  backend "s3" {
    bucket = "shared-state"
    key    = "team/terraform.tfstate"
  }
}

resource "terraform_data" "a" {
  input = "x"
}

output "o" {
  value = "v"
}
