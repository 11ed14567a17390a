variable "l" {
  type = list
}
variable "m" {
  type = map
}
variable "s" {
  type = set
}
variable "t" {
  type = list(string)
}
