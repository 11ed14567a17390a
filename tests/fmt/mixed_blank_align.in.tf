a = 1
bb = 2

ccc = 3
d = 4
