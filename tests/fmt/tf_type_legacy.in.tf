variable "a" {
  type = "string"
}
variable "b" {
  type = "list"
}
variable "c" {
  type="map"
}
variable "d" {
  type = "number"
}
