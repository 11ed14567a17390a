provider "random" {}

module "inherit" {
  source = "./inherit"
}

module "own" {
  source = "./own"
}
