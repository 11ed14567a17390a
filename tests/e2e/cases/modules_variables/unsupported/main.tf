module "m" {
  source = "../mod"
  name   = "x"
  colour = "blue"
}
