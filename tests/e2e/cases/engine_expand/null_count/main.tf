resource "null_resource" "a" {
  count = null
}
