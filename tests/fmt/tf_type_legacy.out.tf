variable "a" {
  type = string
}
variable "b" {
  type = list(string)
}
variable "c" {
  type = map(string)
}
variable "d" {
  type = "number"
}
