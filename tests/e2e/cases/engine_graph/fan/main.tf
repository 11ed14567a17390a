resource "terraform_data" "root" {
  input = "r"
}

resource "terraform_data" "mid" {
  count = 8
  input = "${terraform_data.root.output}-${count.index}"
}

resource "terraform_data" "leaf" {
  for_each = toset(["p", "q", "r", "s"])
  input    = join(",", terraform_data.mid[*].output)
}

resource "null_resource" "side" {
  count = 6
}

output "leaf_p" {
  value = terraform_data.leaf["p"].output
}
