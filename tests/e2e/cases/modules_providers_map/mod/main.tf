variable "name" {
  type = string
}

resource "random_id" "r" {
  byte_length = 4
}

resource "local_file" "f" {
  filename = "${path.root}/${var.name}.txt"
  content  = var.name
}

module "inner" {
  source = "./inner"
}
