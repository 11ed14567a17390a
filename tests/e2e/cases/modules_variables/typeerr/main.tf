module "m" {
  source = "../mod"
  name   = ["not", "a", "string"]
}
