variable "from_env" {}
variable "from_tfvars" {}
variable "from_json" {}
variable "from_auto" {}
variable "from_file" {}
variable "from_cli" {}
variable "with_default" {
  default = "the default"
}
variable "count_of" {
  type = number
}
variable "tags" {
  type = map(string)
}
variable "untyped" {}
variable "settings" {
  type = object({
    name = string
    size = optional(number, 3)
  })
  default = { name = "x" }
}
