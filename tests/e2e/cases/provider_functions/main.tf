terraform {
  required_providers {
    local = { source = "hashicorp/local" }
  }
}

variable "dir" {
  type    = string
  default = "sub"
}

output "sub" { value = provider::local::direxists(var.dir) }
output "missing" { value = provider::local::direxists("nope/deeper") }
output "abs" { value = provider::local::direxists("/") }
output "tfvars" { value = provider::terraform::encode_tfvars({ a = 1 }) }
output "secret" {
  value     = provider::local::direxists(sensitive("sub"))
  sensitive = true
}

resource "local_file" "f" {
  filename = "${path.module}/made/file.txt"
  content  = "made"
}

# unknown at plan: the call waits for apply
output "later" { value = provider::local::direxists("made/${local_file.f.id}") }
