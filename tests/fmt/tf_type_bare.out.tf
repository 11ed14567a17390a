variable "l" {
  type = list(any)
}
variable "m" {
  type = map(any)
}
variable "s" {
  type = set(any)
}
variable "t" {
  type = list(string)
}
