variable "secret" {
  default   = "s3cr3t"
  sensitive = true
}

resource "terraform_data" "a" {
  input = "hello"
  provisioner "local-exec" {
    command = "echo created ${self.output}; printf 'two\nlines\n'"
  }
  provisioner "local-exec" {
    when    = destroy
    command = "echo bye ${self.input}"
  }
}

resource "terraform_data" "s" {
  provisioner "local-exec" {
    command = "echo ${var.secret}"
  }
}

resource "terraform_data" "f" {
  provisioner "local-exec" {
    command = "exit 3"
  }
}
