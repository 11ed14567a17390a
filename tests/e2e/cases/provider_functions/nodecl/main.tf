output "exists" { value = provider::local::direxists(".") }
