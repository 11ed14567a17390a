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
  tags     = { env = "test" }

  endpoint = { host = "db.example" }
  disks    = [{ size = 10 }, { size = 20, kind = "hdd" }]

  rule {
    port = 80
  }
  rule {
    port  = 53
    proto = "udp"
  }
  label {
    key   = "team"
    value = "core"
  }
}

data "pytest_echo" "e" {
  input = "alpha"
}

output "upper" {
  value = data.pytest_echo.e.upper
}
