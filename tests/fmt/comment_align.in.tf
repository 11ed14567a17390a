locals {
  a = 1 # one
  long_name = "two" # two
  x = [1,2] # three
}
