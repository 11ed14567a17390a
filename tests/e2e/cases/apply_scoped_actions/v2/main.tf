variable "gen" {
  default = "2"
}

# replaced when gen changes: destroy, then create
resource "terraform_data" "dtc" {
  count            = 4
  input            = { n = count.index, label = "dtc-${count.index}-${var.gen}" }
  triggers_replace = [var.gen]
}

# replaced when gen changes: create first, the old object deposed, then
# deleted by the deposed node
resource "terraform_data" "cbd" {
  count            = 4
  input            = "cbd-${count.index}-${var.gen}"
  triggers_replace = [var.gen]
  lifecycle {
    create_before_destroy = true
  }
}

# dependents read the replaced instances' values after their scopes ended
resource "terraform_data" "dep" {
  count = 4
  input = "${terraform_data.dtc[count.index].output.label}/${terraform_data.cbd[count.index].output}"
}

# deleted when shrunk
resource "terraform_data" "gone" {
  count = var.gen == "1" ? 3 : 1
  input = "gone-${count.index}"
}

output "labels" {
  value = [for d in terraform_data.dep : d.output]
}

output "ids_differ" {
  value = terraform_data.dtc[0].id != terraform_data.cbd[0].id
}
