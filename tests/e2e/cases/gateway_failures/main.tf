resource "null_resource" "a" {
  provisioner "local-exec" {
    # Kills the gateway's plugin processes (its children) in the middle
    # of the apply, so the next call finds the plugin gone.
    command = "kill -9 $(pgrep -P $(cat gw.pid) '^terraform-prov')"
  }
}

resource "null_resource" "b" {
  depends_on = [null_resource.a]
}
