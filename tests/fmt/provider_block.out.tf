provider "aws" {
  region = "us-east-1"
  alias  = "east"
  default_tags {
    tags = { Team = "x" }
  }
}
