terraform {
  required_providers {
    pytest = { source = "cairn.test/test/pytest" }
  }
}

provider "pytest" {
  state_dir = "objects"
}

resource "pytest_thing" "a" {
  name     = "alpha"
  size     = 2
  password = "hunter2"

  rule {
    port = 80
  }
  label {
    key   = "team"
    value = "core"
  }
}

output "id" {
  value = pytest_thing.a.id
}
