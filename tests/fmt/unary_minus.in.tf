a = -1
b = 1 - -1
c = [-1, - 2]
d = (-x)
e = x ? -1 : -2
f = x-1
g = !true
h = ! x
