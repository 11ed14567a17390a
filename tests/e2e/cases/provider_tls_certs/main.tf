resource "tls_private_key" "ca" {
  algorithm   = "ECDSA"
  ecdsa_curve = "P384"
}

resource "tls_self_signed_cert" "ca" {
  private_key_pem = tls_private_key.ca.private_key_pem
  subject {
    common_name    = "Example CA"
    organization   = "ACME Examples, Inc"
    street_address = ["1 Main St"]
    country        = "DE"
  }
  validity_period_hours = 24
  is_ca_certificate     = true
  set_authority_key_id  = true
  allowed_uses          = ["cert_signing", "crl_signing"]
}

resource "tls_private_key" "srv" {
  algorithm = "ED25519"
}

resource "tls_cert_request" "srv" {
  private_key_pem = tls_private_key.srv.private_key_pem
  subject {
    common_name = "srv.example.com"
  }
  dns_names    = ["srv.example.com"]
  ip_addresses = ["192.0.2.1", "2001:db8::1"]
  uris         = ["spiffe://example.com/srv"]
}

resource "tls_locally_signed_cert" "srv" {
  cert_request_pem      = tls_cert_request.srv.cert_request_pem
  ca_private_key_pem    = tls_private_key.ca.private_key_pem
  ca_cert_pem           = tls_self_signed_cert.ca.cert_pem
  validity_period_hours = 12
  allowed_uses          = ["digital_signature", "server_auth"]
}
