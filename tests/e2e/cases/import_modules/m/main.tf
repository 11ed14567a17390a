resource "random_id" "x" {
  byte_length = 4
}
resource "random_string" "s" {
  for_each = toset(["a"])
  length   = 3
}
