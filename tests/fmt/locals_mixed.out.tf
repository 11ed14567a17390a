locals {
  a = 1
  b = "two"

  c  = [1, 2]
  dd = { x = 1, y = 2 }
}
