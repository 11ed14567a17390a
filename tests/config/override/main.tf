# Primary file; b_override.tf and then override.tf (name order) are merged
# into it after every primary file (Terraform's Module.mergeFile).
terraform {
  required_version = "< 1.0.0"
  required_providers {
    thing = {
      source  = "acme/thing"
      version = "1.0"
    }
  }
}

variable "size" {
  type    = string
  default = "large"
}

locals {
  greeting = "hello"
}

resource "thing_x" "a" {
  keep = 1
  swap = "base"
  rule {
    n = 1
  }
  dynamic "rule" {
    for_each = [2, 3]
    content {
      n = rule.value
    }
  }
  other {
    n = 4
  }
  lifecycle {
    create_before_destroy = true
    prevent_destroy       = true
  }
  provisioner "local-exec" {
    command = "one"
  }
  provisioner "local-exec" {
    command = "two"
  }
}

output "o" {
  value       = local.greeting
  description = "kept"
}
