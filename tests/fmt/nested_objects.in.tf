locals {
m = {
a = {
b = {
c = 1
}
}
long_key = 2
}
}
