a = max( 1 , 2 )
b = join(",",var.list)
c = f(x...)
d = lookup(var.m,"k", null)
