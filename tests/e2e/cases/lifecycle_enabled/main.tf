variable "on" {
  default = true
}

resource "terraform_data" "x" {
  input = "v"
  lifecycle {
    enabled = var.on
  }
}

output "x" {
  value = terraform_data.x == null ? "disabled" : terraform_data.x.output
}
