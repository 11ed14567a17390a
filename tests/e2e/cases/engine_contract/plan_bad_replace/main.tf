resource "misbehave_plan_bad_replace" "x" {
  value = "v"
}
