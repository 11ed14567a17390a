variable "name" {
  type = string
}

variable "size" {
  type    = number
  default = 3
}

variable "tags" {
  type    = map(string)
  default = {}
}

variable "strict" {
  type     = string
  default  = "kept"
  nullable = false
}

resource "terraform_data" "t" {
  input = "${var.name}/${var.size}/${join(",", keys(var.tags))}/${var.strict}"
}

output "summary" {
  value = terraform_data.t.input
}
