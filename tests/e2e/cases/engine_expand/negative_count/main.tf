resource "null_resource" "a" {
  count = -1
}
