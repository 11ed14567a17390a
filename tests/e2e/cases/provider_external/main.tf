data "external" "e" {
  program     = ["sh", "-c", "cat > q.json; printf '{\"greeting\":\"hi\",\"n\":\"1\"}'"]
  query       = { name = "edge", b = "2" }
  working_dir = "."
}

data "local_command" "c" {
  command                  = "sh"
  arguments                = ["-c", "read x; echo \"got $x\"; echo warn >&2; exit 3", null]
  stdin                    = "abc\n"
  allow_non_zero_exit_code = true
}

output "result" { value = data.external.e.result }
output "cmd" {
  value = [data.local_command.c.stdout, data.local_command.c.stderr,
  data.local_command.c.exit_code]
}
