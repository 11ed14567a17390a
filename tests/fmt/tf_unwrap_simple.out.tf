a  = var.x
bb = "${var.y} "
c  = "${var.a}${var.b}"
d  = "x${var.z}"
