resource "null_resource" "a" {
  triggers = { x = "1" }
}

data "null_data_source" "d" {
  inputs = { a = "b" }
}

output "d" {
  value = data.null_data_source.d.outputs
}
