resource "misbehave_plan_wrong_type" "x" {
  value = "v"
}
