terraform {
  required_version = "< 1.0.0"
}

terraform {
  required_version = ">= 1.x"
}

terraform {
  required_version = ">= 1.5, ~> 1.9"
}
