terraform {
  required_providers {
    misbehave = {
      source = "cairn.test/test/misbehave"
    }
  }
}
