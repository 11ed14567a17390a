resource "misbehave_apply_nil" "x" {
  value = "v"
}
