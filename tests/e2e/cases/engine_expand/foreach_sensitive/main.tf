variable "s" {
  default   = ["a"]
  sensitive = true
}

resource "null_resource" "a" {
  for_each = toset(var.s)
}
