module "child" {
  source = "./child"
  plain  = ephemeral.random_password.p.result
}

ephemeral "random_password" "p" {
  length = 8
}

output "eph" {
  ephemeral = true
  value     = "x"
}
