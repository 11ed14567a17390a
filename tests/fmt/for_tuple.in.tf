a = [for x in var.list: upper(x) if x!=""]
