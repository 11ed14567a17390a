variable "token" {
  type      = string
  ephemeral = true
  default   = "good"
}

resource "terraform_data" "b" {
  input = "y"
}

# Unknown at plan time (b's id): decided during apply.
resource "terraform_data" "a" {
  input = "x"
  lifecycle {
    precondition {
      condition     = terraform_data.b.id == "nope"
      error_message = "b id is not nope"
    }
  }
}

# An ephemeral variable is given again when a saved plan is applied.
resource "terraform_data" "t" {
  input = "z"
  lifecycle {
    precondition {
      condition     = var.token == "good"
      error_message = "bad token"
    }
  }
}
