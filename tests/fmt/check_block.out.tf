check "health" {
  data "http" "x" {
    url = "https://example.com"
  }
  assert {
    condition     = data.http.x.status_code == 200
    error_message = "bad"
  }
}
