variable "token" {
  type      = string
  ephemeral = true
}

output "token_is_ephemeral" {
  value = ephemeralasnull(var.token) == null
}

# Provisioners may use ephemeral values; their output is suppressed.
resource "terraform_data" "run" {
  provisioner "local-exec" {
    command = "echo ${var.token}"
  }
}
