variable "v" {
  default = "1"
}
variable "n" {
  default = 3
}

resource "terraform_data" "trig" {
  input = var.v
}

resource "terraform_data" "ign" {
  input = { a = var.v, b = "fixed" }
  lifecycle {
    ignore_changes = [input["a"]]
  }
}

resource "terraform_data" "rt" {
  count = 2
  input = "x"
  lifecycle {
    replace_triggered_by = [terraform_data.trig]
  }
}

resource "terraform_data" "keep" {
  input = "precious"
  lifecycle {
    prevent_destroy = true
  }
}

resource "terraform_data" "pre" {
  input = var.n
  lifecycle {
    precondition {
      condition     = var.n < 5
      error_message = "n must be below 5."
    }
    postcondition {
      condition     = self.output == var.n
      error_message = "output must echo n."
    }
  }
}
