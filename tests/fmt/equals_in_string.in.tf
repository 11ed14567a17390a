a = "x = y"
bbb = "=="
