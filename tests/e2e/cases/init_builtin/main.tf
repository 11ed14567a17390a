resource "null_resource" "a" {}

resource "random_pet" "p" {}
