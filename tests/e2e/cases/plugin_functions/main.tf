terraform {
  required_providers {
    pytest = { source = "cairn.test/test/pytest" }
  }
}

provider "pytest" {
  state_dir = "objects"
}

locals {
  shout = provider::pytest::upper("alpha")
}

resource "pytest_thing" "a" {
  name = provider::pytest::repeat(local.shout, 2)
  size = 2
}

output "shout" {
  value = local.shout
}

output "name" {
  value = pytest_thing.a.name
}

output "id" {
  value = provider::pytest::upper(pytest_thing.a.id)
}
