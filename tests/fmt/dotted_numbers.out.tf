a = var.list.0.name
