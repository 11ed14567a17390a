a = var.list [ 0 ]
b = var.map["key"]
c = foo()[0]
d = 1[0]
