resource "null_resource" "b" {
  triggers = {
