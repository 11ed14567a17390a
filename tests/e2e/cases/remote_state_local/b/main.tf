variable "path" {
  default = "../a/terraform.tfstate"
}

variable "workspace" {
  default = null
}

data "terraform_remote_state" "x" {
  backend = "local"
  config = {
    path          = var.path
    workspace_dir = "../a/terraform.tfstate.d"
  }
  workspace = var.workspace
  defaults = {
    name  = "unused"
    extra = "from-defaults"
    zone  = "z1"
  }
}

output "name" {
  value = data.terraform_remote_state.x.outputs.name
}

output "https" {
  value = data.terraform_remote_state.x.outputs.ports[1]
}

output "team" {
  value = data.terraform_remote_state.x.outputs.tags.team
}

output "extra" {
  value = data.terraform_remote_state.x.outputs.extra
}

output "secret_length" {
  value = length(data.terraform_remote_state.x.outputs.secret)
}

output "zone" {
  value = data.terraform_remote_state.x.outputs.zone
}
