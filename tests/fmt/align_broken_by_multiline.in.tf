a = 1
bb = {
c = 1
}
ddddd = 2
e = 3
