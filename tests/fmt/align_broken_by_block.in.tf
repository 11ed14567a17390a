x {
a = 1
blk {
}
longer = 2
}
