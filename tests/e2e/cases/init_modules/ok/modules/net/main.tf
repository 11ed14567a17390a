terraform {
  required_providers {
    rnd = {
      source = "hashicorp/random"
    }
  }
}

module "sub" {
  source = "./sub"
}

resource "random_id" "r" {
  provider    = rnd
  byte_length = 2
}
