data "http" "get" {
  url = "${local.base}/200"
}

data "http" "post" {
  url          = "${local.base}/echo"
  method       = "POST"
  request_body = "{\"hello\":\"edge\"}"
  request_headers = {
    "content-type" = "application/json"
    "X-Token"      = "abc"
  }
}

data "http" "head" {
  url    = "${local.base}/200"
  method = "HEAD"
}

data "http" "missing" {
  url = "${local.base}/404"
}

data "http" "tls" {
  url         = "${local.tls}/200"
  ca_cert_pem = file("certs/ca.crt")
}

data "http" "retry" {
  url = "${local.base}/fail/2/r1"
  retry {
    attempts     = 3
    min_delay_ms = 10
    max_delay_ms = 40
  }
}

data "http" "secret" {
  url                   = "${local.base}/200"
  response_is_sensitive = true
}

output "get" {
  value = [data.http.get.status_code, data.http.get.response_body,
    data.http.get.body, data.http.get.response_body_base64,
    data.http.get.response_headers["Content-Type"],
    data.http.get.response_headers["X-Single"],
  data.http.get.response_headers["X-Double"], data.http.get.id == "${local.base}/200"]
}
output "post" { value = data.http.post.response_body }
output "head" {
  value = [data.http.head.status_code, data.http.head.response_body,
  data.http.head.response_headers["X-Double"]]
}
output "missing" {
  value = [data.http.missing.status_code, data.http.missing.response_body]
}
output "tls" { value = [data.http.tls.status_code, data.http.tls.response_body] }
output "retry" { value = [data.http.retry.status_code, data.http.retry.response_body] }
output "secret" {
  value     = data.http.secret.sensitive_response_body
  sensitive = true
}
