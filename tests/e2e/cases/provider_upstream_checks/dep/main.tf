resource "random_string" "s" {
  length = 4
  number = true
}
