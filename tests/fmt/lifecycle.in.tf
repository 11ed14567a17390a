resource "a" "b" {
  lifecycle {
    create_before_destroy = true
    ignore_changes = [tags, ami]
    prevent_destroy=false
  }
  depends_on = [a.c]
  count = 2
}
