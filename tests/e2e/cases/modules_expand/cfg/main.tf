variable "workers" {
  type    = number
  default = 2
}

variable "sites" {
  type    = set(string)
  default = ["east", "west"]
}

module "worker" {
  count  = var.workers
  source = "./svc"
  name   = "worker-${count.index}"
}

module "site" {
  for_each = var.sites
  source   = "./svc"
  name     = "site-${each.key}"
}

resource "terraform_data" "summary" {
  input = {
    workers = module.worker[*].name
    east    = module.site["east"].id
  }
}

output "workers" {
  value = module.worker[*].name
}

output "first_worker" {
  value = module.worker[0].name
}

output "sites" {
  value = { for k, m in module.site : k => m.name }
}
