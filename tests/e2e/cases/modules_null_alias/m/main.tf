resource "null_resource" "r" {}
