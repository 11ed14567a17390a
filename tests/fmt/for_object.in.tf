a = {for k,v in var.map: k=>v...}
