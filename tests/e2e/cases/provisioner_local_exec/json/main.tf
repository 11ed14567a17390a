resource "terraform_data" "a" {
  input = "hello"
  provisioner "local-exec" {
    command = "printf 'one  \\n\\n  two\\n'"
  }
  provisioner "local-exec" {
    command    = "exit 4"
    on_failure = continue
  }
  provisioner "local-exec" {
    command = "echo second"
  }
  provisioner "local-exec" {
    when    = destroy
    command = "echo bye"
  }
}

resource "terraform_data" "f" {
  depends_on = [terraform_data.a]
  provisioner "local-exec" {
    command = "exit 3"
  }
}
