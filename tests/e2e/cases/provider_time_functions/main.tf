terraform {
  required_providers {
    time = { source = "hashicorp/time" }
  }
}

output "utc" { value = provider::time::rfc3339_parse("2023-07-25T23:43:16Z") }
output "offset" {
  value = provider::time::rfc3339_parse("1996-12-19T16:39:57-08:00")
}
output "week" {
  value = provider::time::rfc3339_parse("2024-12-30T00:00:00Z").iso_week
}
output "dur" { value = provider::time::duration_parse("1h2m3.5s") }
output "neg" { value = provider::time::duration_parse("-1.5h").minutes }
output "unix" { value = provider::time::unix_timestamp_parse(1690328596) }
