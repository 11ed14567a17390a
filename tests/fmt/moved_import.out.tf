moved {
  from = aws_instance.a
  to   = aws_instance.b
}
import {
  to = aws_instance.c
  id = "i-123"
}
