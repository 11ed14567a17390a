# Errors: an overridden type that the default no longer fits, and an
# override of depends_on.
variable "size" {
  type = number
}

resource "thing_x" "a" {
  depends_on = [thing_x.b]
}
