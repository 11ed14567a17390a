a = 1 /* inline */
bb = 2
