x { a = 1 } # c
y = 2       # d
