resource "null_resource" "a" {
  provisioner "local-exec" {
    # Kills this cairn's plugin process (a child of cairn, like this
    # shell), so the next call on the plugin finds it gone.
    command = "kill -9 $(pgrep -P $PPID '^terraform-prov')"
  }
}

resource "null_resource" "b" {
  depends_on = [null_resource.a]
}
