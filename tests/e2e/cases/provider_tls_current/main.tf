variable "key_version" {
  type    = number
  default = 1
}

resource "tls_private_key" "ca" {
  algorithm = "ED25519"
}

resource "tls_self_signed_cert" "ca" {
  private_key_pem_wo         = tls_private_key.ca.private_key_pem
  private_key_pem_wo_version = var.key_version
  subject {
    common_name   = "Example CA"
    email_address = "ca@example.com"
  }
  validity_period_hours = 24
  is_ca_certificate     = true
  allowed_uses          = ["cert_signing"]
}

resource "tls_private_key" "srv" {
  algorithm   = "ECDSA"
  ecdsa_curve = "P256"
}

resource "tls_cert_request" "srv" {
  private_key_pem_wo         = tls_private_key.srv.private_key_pem
  private_key_pem_wo_version = 1
  subject {
    email_address = "srv@example.com"
  }
}

resource "tls_locally_signed_cert" "srv" {
  cert_request_pem              = tls_cert_request.srv.cert_request_pem
  ca_private_key_pem_wo         = tls_private_key.ca.private_key_pem
  ca_private_key_pem_wo_version = 1
  ca_cert_pem                   = tls_self_signed_cert.ca.cert_pem
  validity_period_hours         = 1
  allowed_uses                  = ["server_auth"]
}

data "tls_certificate" "srv" {
  content = tls_locally_signed_cert.srv.cert_pem
}

output "subject" {
  value = data.tls_certificate.srv.certificates[0].subject
}

output "issuer" {
  value = data.tls_certificate.srv.certificates[0].issuer
}
