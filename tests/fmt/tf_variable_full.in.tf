variable "region" {
  type = "string"
  default = "${var.other}"
  description = "The region"
}
