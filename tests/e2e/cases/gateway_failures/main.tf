resource "null_resource" "a" {
  provisioner "local-exec" {
    # Kills the gateway's plugin processes (its children) between two
    # calls of the apply, and waits until they are dead (zombies or
    # gone), so the gateway's next look finds them dead.
    command = "for p in $(pgrep -P $(cat gw.pid) '^terraform-prov'); do kill -9 $p 2>/dev/null; while [ -e /proc/$p ] && ! grep -q ') Z' /proc/$p/stat 2>/dev/null; do sleep 0.1; done; done"
  }
}

resource "null_resource" "b" {
  depends_on = [null_resource.a]
}
