resource "random_id" "i" { byte_length = 1 }
