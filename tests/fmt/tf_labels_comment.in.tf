resource "a" /* c */ "b" {
  x = 1
}
