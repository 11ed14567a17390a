resource "misbehave_apply_unknown" "x" {
  value = "v"
}
