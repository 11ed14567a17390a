resource "x" "y" {
  content=<<EOT
    keep   this
  and  ${var.x}
EOT
  other=1
}
