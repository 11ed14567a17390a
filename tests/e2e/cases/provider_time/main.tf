resource "time_static" "s" {
  rfc3339 = "2020-01-31T10:00:00+01:00"
}

resource "time_offset" "o" {
  base_rfc3339  = "2020-01-31T10:00:00Z"
  offset_months = 1
}

resource "time_rotating" "r" {
  rfc3339       = "2020-01-01T00:00:00Z"
  rotation_days = 36500
}

resource "time_sleep" "w" {
  create_duration  = "1ms"
  destroy_duration = "1ms"
}
