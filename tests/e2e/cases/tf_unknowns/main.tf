resource "random_id" "a" {
  byte_length = 4
}

# cty keeps a collection known when only some elements are unknown, so
# these expand at plan time as they do in Terraform.
resource "terraform_data" "b" {
  for_each = merge({ x = "1" }, { y = random_id.a.hex })
  input    = each.key
}

resource "terraform_data" "c" {
  count = length(concat([random_id.a.hex], ["x"]))
  input = count.index
}

# A template is refined as never null (Terraform >= 1.6).
resource "terraform_data" "d" {
  count = "${random_id.a.hex}-x" != null ? 1 : 0
}

# Impure functions are unknown until apply.
output "stamp" {
  value = timestamp()
}

output "stamp_is_set" {
  value = length(timestamp()) > 0
}
