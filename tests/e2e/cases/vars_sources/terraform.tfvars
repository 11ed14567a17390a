from_tfvars = "terraform.tfvars"
from_json   = "terraform.tfvars"
from_auto   = "terraform.tfvars"
from_file   = "terraform.tfvars"
from_cli    = "terraform.tfvars"
count_of    = 1
tags        = { env = "dev" }
