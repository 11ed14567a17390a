resource "misbehave_apply_null" "x" {
  value = "v"
}
