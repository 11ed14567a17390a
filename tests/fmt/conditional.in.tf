a = var.x?"yes":"no"
