a = aws_instance.web[*].id
b = aws_instance.web.*.id
c = var.x[ 0 ].y
