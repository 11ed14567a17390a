locals {
  script = <<-EOF
    echo hi
      nested
    EOF
  b      = 2
}
