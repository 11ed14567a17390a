a = {
  for k, v in var.m :
  k => v
  if v != null
}
