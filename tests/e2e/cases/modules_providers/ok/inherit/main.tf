resource "random_integer" "i" {
  min = 1
  max = 1
}

resource "local_file" "f" {
  filename = "${path.root}/inherit.txt"
  content  = "inherited"
}
