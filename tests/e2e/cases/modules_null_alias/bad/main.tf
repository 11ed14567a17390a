provider "null" {
  alias = "alt"
}

resource "null_resource" "quoted" {
  provider = "null.alt"
}

resource "null_resource" "indexed" {
  provider = null[0]
}

module "m" {
  source = "./m"
  providers = {
    null = null.alt
    null = null
  }
}
