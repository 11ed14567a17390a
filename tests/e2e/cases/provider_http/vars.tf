variable "port" {}
variable "tls_port" {}
variable "mtls_port" {}
locals {
  base = "http://127.0.0.1:${var.port}"
  tls  = "https://localhost:${var.tls_port}"
  mtls = "https://localhost:${var.mtls_port}"
}
