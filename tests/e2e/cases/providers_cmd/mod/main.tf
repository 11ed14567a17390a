resource "local_file" "f" {
  filename = "x"
  content  = "y"
}
module "inner" { source = "./inner" }
