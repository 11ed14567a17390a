provider "null" {
  alias = "alt"
}

module "m" {
  source = "./m"
  providers = {
    null = null.alt
  }
}

resource "null_resource" "x" {
  provider = null.alt
}

resource "null_resource" "d" {
  provider = null
}
