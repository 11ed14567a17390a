terraform {
  required_providers {
    pytest = { source = "cairn.test/test/pytest" }
  }
}

locals {
  shout = provider::pytest::upper("alpha")
}

output "shout" {
  value = local.shout
}

output "twice" {
  value = provider::pytest::repeat(local.shout, 2)
}
