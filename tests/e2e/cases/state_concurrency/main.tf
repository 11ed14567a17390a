# Each apply reads the members recorded in the state it is about to
# change (through terraform_remote_state on the same file, read at plan
# time, under the lock), adds var.me, and records the new list: a
# read-modify-write.  If two applies ever held the lock at once, both
# would read the same list and the later write would drop the other's
# member: a lost update shows as a missing member.
variable "me" {
  type = string
}

data "terraform_remote_state" "self" {
  backend = "local"
}

locals {
  members = toset(concat(data.terraform_remote_state.self.outputs.members, [var.me]))
}

resource "terraform_data" "m" {
  for_each = local.members
  input    = each.key
}

output "members" {
  value = sort(keys(terraform_data.m))
}
