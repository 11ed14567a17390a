terraform {
  required_version = ">= 1.0"
  required_providers {
    edge = {
      source  = "acme.example/fleet/edge"
      version = "~> 1.0"
    }
  }
}

provider "edge" {
  alias    = "west"
  endpoint = "x"
}

variable "name" {
  type    = string
  default = "demo"
  validation {
    condition     = length(var.name) > 0
    error_message = "Name must not be empty."
  }
}

variable "tags" {
  type = map(string)
}

locals {
  greeting = "hello ${var.name}"
}

resource "null_resource" "a" {
  count = 2
  triggers = {
    g = local.greeting
  }
  lifecycle {
    create_before_destroy = true
    ignore_changes        = [triggers["g"]]
  }
  provisioner "local-exec" {
    command = "echo hi"
    when    = destroy
  }
}

data "local_file" "f" {
  filename = "x.txt"
  depends_on = [null_resource.a]
}

module "net" {
  source = "./net"
  providers = {
    edge = edge.west
  }
}

output "greeting" {
  value     = local.greeting
  sensitive = true
}

moved {
  from = null_resource.old
  to   = null_resource.a
}

removed {
  from = null_resource.gone
  lifecycle {
    destroy = false
  }
}
