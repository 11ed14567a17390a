ephemeral "random_password" "p" {
  length = 8
}

resource "terraform_data" "plain" {
  input = ephemeral.random_password.p.result
}

resource "terraform_data" "counted" {
  count = length(ephemeral.random_password.p.result)
}

output "leak" {
  value = ephemeral.random_password.p.bcrypt_hash
}
