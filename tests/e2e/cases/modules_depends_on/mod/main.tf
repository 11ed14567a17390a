resource "random_pet" "p" {
  length = 2
}

resource "terraform_data" "inner" {
  input = random_pet.p.id
}

output "id" {
  value = terraform_data.inner.id
}
