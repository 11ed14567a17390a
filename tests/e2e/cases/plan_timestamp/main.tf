output "t" {
  value = plantimestamp()
}

output "year" {
  value = formatdate("YYYY", plantimestamp())
}

resource "terraform_data" "x" {
  count = 3
  input = plantimestamp()
}
