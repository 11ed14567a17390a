variable "port" {
  type = number
  validation {
    condition     = var.port > 1024
    error_message = "The port must be above 1024."
  }
}
variable "name" {
  type     = string
  nullable = false
  default  = "app"
}
variable "token" {
  type      = number
  sensitive = true
  default   = 1
}
variable "ports" {
  type    = list(number)
  default = []
}
