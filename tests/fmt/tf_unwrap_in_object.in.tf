a = {
  b = "${var.x}"
}
c = ["${var.y}"]
