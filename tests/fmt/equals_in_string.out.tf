a   = "x = y"
bbb = "=="
