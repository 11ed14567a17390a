resource "misbehave_apply_changes_known" "x" {
  value = "v"
}
