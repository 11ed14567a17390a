terraform {
  backend "pg" {
  }
}

# Its provisioner holds the apply (and the lock) until ../go exists.
resource "terraform_data" "a" {
  provisioner "local-exec" {
    command = "touch ../started; while [ ! -f ../go ]; do sleep 0.1; done"
  }
}
