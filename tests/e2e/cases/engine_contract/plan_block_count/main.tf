resource "misbehave_plan_block_count" "x" {
  value = "v"
}
