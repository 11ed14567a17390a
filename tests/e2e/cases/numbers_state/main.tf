# Numbers that are not exact doubles: each must survive the state's round
# trip, so the plan after apply has nothing to do.
resource "terraform_data" "n" {
  input = {
    third   = 1 / 3
    sum     = 0.1 + 0.2
    digits  = 1.2345678901234567
    big     = 12345678901234567890
    product = 0.10 * 1.5
    root    = pow(2, 0.5)
  }
}

output "n" {
  value = terraform_data.n.output
}
