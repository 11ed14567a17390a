variable "name" {
  default = "world"
}

resource "local_file" "greeting" {
  filename = "${path.module}/greeting.txt"
  content  = "hello ${var.name}\n"
}

resource "terraform_data" "after" {
  input = local_file.greeting.content_md5
}

output "md5" {
  value = terraform_data.after.output
}

output "file" {
  value = local_file.greeting.filename
}

output "secret" {
  value     = "s3cr3t"
  sensitive = true
}
