a = var.list[*]
b = var.list[*].a.b
c = [for o in var.l : o.id]
