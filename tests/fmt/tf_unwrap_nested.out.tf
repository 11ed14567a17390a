resource "x" "y" {
  a = lookup(var.m, "${var.k}")
  nested {
    b = count.index
  }
}
