module "vpc" {
  source = "terraform-aws-modules/vpc/aws"
  version = "~> 5.0"
  cidr = "10.0.0.0/16"
  azs = ["eu-west-1a","eu-west-1b"]
}
