provider "tls" {
  proxy {
    url = "not a url"
  }
}
resource "tls_private_key" "k" { algorithm = "ED25519" }
