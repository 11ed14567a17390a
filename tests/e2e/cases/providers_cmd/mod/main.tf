terraform {
  required_providers {
    local = {
      source  = "hashicorp/local"
      version = "= 2.5.1"
    }
  }
}
resource "local_file" "f" {
  filename = "x"
  content  = "y"
}
module "inner" { source = "./inner" }
