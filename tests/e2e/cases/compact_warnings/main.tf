provider "null" {
  version = "3.0.0"
}

provider "random" {
  version = "3.0.0"
}

resource "terraform_data" "a" {
  input = "x"
}
