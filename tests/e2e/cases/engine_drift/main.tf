resource "local_file" "a" {
  filename = "${path.module}/a.txt"
  content  = "alpha"
}

resource "local_file" "b" {
  filename = "${path.module}/b.txt"
  content  = "beta"
}

resource "terraform_data" "keep" {
  input = "same"
}
