resource "null_resource" "a" {
  for_each = toset([1, 2])
}
