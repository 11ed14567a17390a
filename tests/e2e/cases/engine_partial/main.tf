terraform {
  required_providers {
    misbehave = {
      source = "cairn.test/test/misbehave"
    }
  }
}

resource "misbehave_ok" "base" {
  value = "base"
}

resource "misbehave_ok" "bad" {
  value    = "bad"
  fail     = true
  delay_ms = 50
}

resource "misbehave_ok" "after_bad" {
  value = misbehave_ok.bad.id
}

resource "misbehave_ok" "after_after" {
  value = misbehave_ok.after_bad.id
}

resource "misbehave_ok" "indep" {
  count    = 3
  value    = "${misbehave_ok.base.id}-${count.index}"
  delay_ms = 20
}

resource "misbehave_apply_partial" "half" {
  value = "half"
}

output "indep" {
  value = misbehave_ok.indep[*].value
}
