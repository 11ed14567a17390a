variable "secret" {
  default   = "s3cret"
  sensitive = true
}

resource "terraform_data" "n" {
  count = 3
  input = {
    i     = count.index
    ratio = 1.50
    name  = "n-${count.index}"
  }
}

resource "terraform_data" "s" {
  input = var.secret
}

resource "terraform_data" "d" {
  count            = 2
  input            = terraform_data.n[count.index].output
  triggers_replace = [terraform_data.s.id]
}

output "o" {
  value = terraform_data.d[1].output
}

output "s" {
  value     = terraform_data.s.output
  sensitive = true
}
