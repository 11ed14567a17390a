terraform {
  required_providers {
    random = {
      source  = "hashicorp/random"
      version = "~> 3.0"
    }
  }
}
provider "null" {
  version = ">= 3.1"
}
resource "null_resource" "a" {}
resource "random_id" "r" { byte_length = 2 }
resource "terraform_data" "t" {}
module "b" { source = "./mod" }
module "a" { source = "./mod" }
