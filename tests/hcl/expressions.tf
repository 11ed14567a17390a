locals {
  names     = [for s in var.servers : upper(s.name) if s.enabled]
  by_zone   = { for s in var.servers : s.zone => s.id... }
  first_ids = aws_instance.web[*].id
  legacy    = aws_instance.web.*.id
  old_index = var.list.0
  cond      = var.a > 0 ? "pos" : var.a == 0 ? "zero" : "neg"
  math      = -var.x * (2 + 3) % 4
  arn       = provider::aws::arn_parse(var.arn)
  spread    = max(var.nums...)
  banner    = <<-EOT
    Hello, ${var.name}!
    %{ for i, v in var.items ~}
    ${i}: ${v}
    %{ endfor ~}
    Bye.
    EOT
}
