module "m" {
  source = "../mod"
  size   = 1
}
