resource "random_id" "a" {
  byte_length = 4
  hex         = "x"
}
