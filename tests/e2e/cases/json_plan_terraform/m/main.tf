resource "random_id" "r" {
  byte_length = 2
}
