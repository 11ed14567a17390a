resource "terraform_data" "a" {
  input = "one"
}

resource "null_resource" "b" {
  count = 2
}

data "null_data_source" "d" {
  inputs = {
    x = "y"
  }
}
