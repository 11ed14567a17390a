terraform {
  required_providers {
    pytest = { source = "cairn.test/test/pytest" }
  }
}

# OBJDIR: replaced by the test with the objects' directory on the
# gateway host (start.sh's objdir).
provider "pytest" {
  state_dir = "OBJDIR"
}

resource "pytest_thing" "a" {
  name = "alpha"
}

resource "pytest_thing" "b" {
  name       = "beta"
  depends_on = [pytest_thing.a]
}
