resource "random_string" "deg" {
  length           = 10
  upper            = false
  lower            = false
  numeric          = false
  override_special = "°"
}

resource "random_shuffle" "none" {
  input        = ["a", "b"]
  result_count = 0
}

output "deg" {
  value = random_string.deg.result
}

output "none" {
  value = random_shuffle.none.result
}
