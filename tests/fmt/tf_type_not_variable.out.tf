locals {
  type = "list"
}
resource "x" "y" {
  type = "map"
  variable {
    type = "string"
  }
}
