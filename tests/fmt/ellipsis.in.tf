a = concat(var.a, var.b)
b = merge(var.maps...)
