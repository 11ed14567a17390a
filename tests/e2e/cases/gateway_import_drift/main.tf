terraform {
  required_providers {
    null   = { source = "hashicorp/null" }
    pytest = { source = "cairn.test/test/pytest" }
  }
}

# OBJDIR: replaced by the test with the objects' directory on the
# gateway host (start.sh's objdir).
provider "pytest" {
  state_dir = "OBJDIR"
}

resource "null_resource" "t" {
  triggers = { v = "1" }
}

resource "pytest_thing" "a" {
  name = "alpha"
  size = 2
}
