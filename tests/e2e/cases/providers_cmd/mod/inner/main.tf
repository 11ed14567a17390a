terraform {
  required_providers {
    random = {
      source  = "hashicorp/random"
      version = "<4.0,>=3.1, >= 3.1.0, != 3.4.1"
    }
  }
}
resource "random_id" "i" { byte_length = 1 }
