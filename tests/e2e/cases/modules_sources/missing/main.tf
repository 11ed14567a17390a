module "gone" {
  source = "./modules/gone"
}
