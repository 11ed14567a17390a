terraform {
  required_providers {
    misbehave = {
      source = "cairn.test/test/misbehave"
    }
  }
}

# first completes, slow blocks in apply until the file "gate" exists,
# after depends on slow and must never start once interrupted.
resource "misbehave_ok" "first" {
  value = "one"
}

resource "misbehave_gate" "slow" {
  value      = "gate"
  depends_on = [misbehave_ok.first]
}

resource "misbehave_ok" "after" {
  value = misbehave_gate.slow.id
}
