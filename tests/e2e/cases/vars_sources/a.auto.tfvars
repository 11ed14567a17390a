from_auto = "a.auto.tfvars"
from_file = "a.auto.tfvars"
