variable "n" {
  type    = number
  default = 2
}

resource "null_resource" "a" {
  count = var.n
  triggers = {
    i = count.index
  }
}

resource "random_pet" "p" {
  length = 2
  keepers = {
    id = null_resource.a[0].id
  }
}

resource "terraform_data" "d" {
  input = random_pet.p.id
}

output "pet" {
  value = random_pet.p.id
}

resource "random_string" "s" {
  for_each = toset(["a", "b"])
  length   = 8
  special  = each.key == "a"
}

data "local_file" "f" {
  filename = "${path.module}/main.tf"
}

resource "local_file" "out" {
  filename = "${path.module}/out.txt"
  content  = data.local_file.f.content
  lifecycle {
    postcondition {
      condition     = self.content != ""
      error_message = "empty"
    }
  }
}
