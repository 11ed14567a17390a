module "vpc" {
  source = "git::https://example.com/vpc.git?ref=v1.2.0"
}

module "gh" {
  source = "github.com/hashicorp/example"
}
