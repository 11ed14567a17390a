# An ephemeral password feeds a provider configuration, a local-exec
# command and (through an ephemeral key) a write-only argument; none of
# it may reach the plan or the state.
ephemeral "random_password" "db" {
  length  = 24
  special = false
}

provider "tls" {
  proxy {
    url = "http://user:${ephemeral.random_password.db.result}@127.0.0.1:9"
  }
}

ephemeral "tls_private_key" "k" {
  algorithm = "ED25519"
}

resource "tls_cert_request" "r" {
  private_key_pem_wo         = ephemeral.tls_private_key.k.private_key_pem
  private_key_pem_wo_version = 1
  subject {
    common_name = "example"
  }
}

# Writes the password it was given to seen.txt, so the transcript can
# look for it in the plan and the state.
ephemeral "local_command" "seen" {
  command   = "sh"
  arguments = ["-c", "printf %s \"$1\" > seen.txt", "sh",
               ephemeral.random_password.db.result]
}

locals {
  len = length(ephemeral.random_password.db.result)
}

output "nulled" {
  value = ephemeralasnull(local.len) == null
}

output "key_algorithm" {
  value = tls_cert_request.r.key_algorithm
}
