resource "misbehave_plan_unstable" "x" {
  value = "v"
}
