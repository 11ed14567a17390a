provider "local" {}

resource "local_file" "f" {
  filename = "${path.root}/own.txt"
  content  = "own configuration"
}
