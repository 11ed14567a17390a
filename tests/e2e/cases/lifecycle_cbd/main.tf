variable "v" {
  default = "1"
}

variable "cbd" {
  default = false
}

# a <- b <- c: b and c depend on a; with create_before_destroy on c, the
# setting propagates to b and a (seed 002)
resource "terraform_data" "a" {
  triggers_replace = var.v
}

resource "terraform_data" "b" {
  triggers_replace = terraform_data.a.id
}

resource "terraform_data" "c" {
  input            = terraform_data.b.id
  triggers_replace = var.v
}
