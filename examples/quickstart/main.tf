# The quickstart: built-in providers only, no network.
#   cairn init && cairn plan && cairn apply
# then change var.greeting (cairn apply -var greeting=hi) and destroy.

terraform {
  required_providers {
    random = { source = "hashicorp/random" }
    local  = { source = "hashicorp/local" }
  }
}

variable "greeting" {
  type    = string
  default = "hello"
}

variable "names" {
  type    = set(string)
  default = ["alpha", "beta"]
}

resource "random_pet" "site" {
  length = 2
}

resource "random_id" "suffix" {
  byte_length = 4
  keepers = {
    site = random_pet.site.id
  }
}

resource "terraform_data" "node" {
  for_each = var.names
  input    = "${var.greeting}, ${each.key} at ${random_pet.site.id}"
}

resource "local_file" "motd" {
  filename        = "${path.module}/out/motd.txt"
  file_permission = "0644"
  content = join("\n", concat(
    [for k, n in terraform_data.node : n.output],
    ["id: ${random_id.suffix.hex}", ""],
  ))
}

output "site" {
  value = random_pet.site.id
}

output "motd_sha256" {
  value = local_file.motd.content_sha256
}
