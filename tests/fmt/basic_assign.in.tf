a=1
bb="x"
ccc = true
