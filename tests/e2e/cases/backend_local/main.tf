terraform {
  backend "local" {
    path          = "states/prod.tfstate"
    workspace_dir = "ws"
  }
}

resource "terraform_data" "a" {
  input = terraform.workspace
}

output "o" {
  value = terraform_data.a.output
}
