variable "token" {
  type      = string
  ephemeral = true
}

output "token_is_ephemeral" {
  value = ephemeralasnull(var.token) == null
}
