resource "random_integer" "i" {
  min = 1
  max = 9
}
