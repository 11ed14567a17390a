resource "local_file" "a" {
  filename = "${path.module}/a.txt"
  content  = "one"
}

resource "local_file" "b" {
  filename = "${path.module}/b.txt"
  content  = "two"
}

resource "terraform_data" "c" {
  input = "c"
}
