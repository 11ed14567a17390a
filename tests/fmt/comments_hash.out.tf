# top comment
a   = 1 # trailing
bbb = 2 # another

// slash
c = 3 // end
/* block */
d = 4
