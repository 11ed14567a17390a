variable "ok" {
  default = true
}

resource "terraform_data" "a" {
  input = "x"
}

resource "terraform_data" "b" {
  input = "y"
  lifecycle {
    precondition {
      condition     = var.ok
      error_message = "Not ok."
    }
  }
}
