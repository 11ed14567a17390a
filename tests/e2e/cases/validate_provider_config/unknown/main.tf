variable "proxy" {
  default = "ftp://proxy.example:3128"
}

provider "tls" {
  proxy {
    url = var.proxy
  }
}

resource "tls_private_key" "k" {
  algorithm = "ED25519"
}
