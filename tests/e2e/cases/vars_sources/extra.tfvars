from_file = "extra.tfvars"
from_cli  = "extra.tfvars"
