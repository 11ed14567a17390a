terraform {
  required_providers {
    null = { source = "hashicorp/null", version = ">= 3.1" }
  }
}

provider "null" {
  version = "~> 3.0"
}

module "m" {
  source = "./m"
}

resource "null_resource" "x" {
  count = 11
}

output "known" {
  value = "hi"
}

output "unknown" {
  value = null_resource.x[0].id
}
