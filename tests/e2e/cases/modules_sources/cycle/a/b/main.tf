module "back" {
  source = "../"
}
