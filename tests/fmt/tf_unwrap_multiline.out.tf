a = var.x ? 1 : 2
b = (var.c
  ? 1
: 2)
c = (var.d
  ? 1
: 2)
