variable "token" {
  type      = string
  ephemeral = true
}

variable "opt" {
  type      = string
  ephemeral = true
  default   = "d"
}

variable "region" {
  type    = string
  default = "eu"
}

# the value apply was given reaches the provisioner (its output is
# suppressed: the command holds an ephemeral value)
resource "null_resource" "a" {
  triggers = { region = var.region }
  provisioner "local-exec" {
    command = "printf %s ${var.token} > token.txt"
  }
}
