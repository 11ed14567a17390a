terraform {
  required_providers {
    pytest = { source = "cairn.test/test/pytest" }
  }
}

provider "pytest" {
  state_dir = "objects"
}

resource "pytest_thing" "a" {
  name = "alpha"
}
