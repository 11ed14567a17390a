a=1
bb = 2
# c
blk {
  x=1
}
