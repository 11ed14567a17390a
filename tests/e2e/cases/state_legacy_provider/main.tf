resource "null_resource" "n" {}
