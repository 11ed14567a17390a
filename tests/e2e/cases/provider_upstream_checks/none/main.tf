resource "random_password" "p" {
  length  = 4
  special = false
  upper   = false
  lower   = false
  numeric = false
}
