terraform {
  required_providers {
    files = { source = "hashicorp/local" }
  }
}

variable "path" { type = string }

output "exists" { value = provider::files::direxists(var.path) }
