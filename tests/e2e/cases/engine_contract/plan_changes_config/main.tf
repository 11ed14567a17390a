resource "misbehave_plan_changes_config" "x" {
  value = "v"
}
