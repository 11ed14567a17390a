module "m" {
  source = "./m"
  count  = 1
}
module "n" {
  source = "./m"
}
import {
  to = module.n.random_id.x
  id = "p-9hUg"
}
import {
  for_each = toset(["a"])
  to       = module.n.random_string.s[each.key]
  id       = "abc"
}
