# Defaults converted as Terraform converts them (like -var and tfvars).
variable "o" {
  type    = object({ a = string })
  default = { a = null }
}
variable "l" {
  type    = list(string)
  default = [null]
}
variable "n" {
  type    = number
  default = "1500"
}
variable "b" {
  type    = bool
  default = "true"
}
variable "opt" {
  type    = object({ a = optional(string, "x"), b = optional(number) })
  default = {}
}
