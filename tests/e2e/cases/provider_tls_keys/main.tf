resource "tls_private_key" "rsa" {
  algorithm = "RSA"
  rsa_bits  = 1024
}

resource "tls_private_key" "ec" {
  algorithm   = "ECDSA"
  ecdsa_curve = "P256"
}

resource "tls_private_key" "p224" {
  algorithm = "ECDSA"
}

resource "tls_private_key" "ed" {
  algorithm = "ED25519"
}

data "tls_public_key" "from_pem" {
  private_key_pem = tls_private_key.ec.private_key_pem
}

data "tls_public_key" "from_openssh" {
  private_key_openssh = tls_private_key.ed.private_key_openssh
}

output "same" {
  value = [
    data.tls_public_key.from_pem.public_key_openssh == tls_private_key.ec.public_key_openssh,
    data.tls_public_key.from_openssh.public_key_pem == tls_private_key.ed.public_key_pem,
    data.tls_public_key.from_pem.id == tls_private_key.ec.id,
  ]
}

output "algorithms" {
  value = [data.tls_public_key.from_pem.algorithm, data.tls_public_key.from_openssh.algorithm]
}

output "p224_openssh" {
  value = tls_private_key.p224.public_key_openssh
}
