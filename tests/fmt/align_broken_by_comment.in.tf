a = 1
# break
bbbbbb = 2
cc = 3
