provider "random" {
  alias = "alt"
}

provider "local" {
  alias = "alt"
}

module "dflt" {
  source = "./mod"
  name   = "dflt"
}

module "aliased" {
  source = "./mod"
  name   = "aliased"
  providers = {
    random = random.alt
    local  = local.alt
  }
}
