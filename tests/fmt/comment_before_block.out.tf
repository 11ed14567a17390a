# describes block
resource "x" "y" { # trailing on header
  a = 1            # c1

  bbbbbb = 2 # c2
}
