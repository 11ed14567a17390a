variable "msg" {
  type    = string
  default = "one"
}

resource "terraform_data" "web" {
  input = var.msg
  lifecycle {
    action_trigger {
      events  = [before_create]
      actions = [action.local_command.note]
    }
    action_trigger {
      events    = [after_create, after_update]
      condition = var.msg != "quiet"
      actions   = [action.local_command.report]
    }
  }
}

resource "terraform_data" "each" {
  for_each = toset(["a", "b"])
  input    = each.key
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.local_command.greet[each.key]]
    }
  }
}

action "local_command" "note" {
  config {
    command   = "echo"
    arguments = ["before create"]
  }
}

action "local_command" "report" {
  config {
    command     = "sh"
    arguments   = ["-c", "echo \"$GREETING ${terraform_data.web.output}\"; cat"]
    stdin       = "from stdin"
    environment = { GREETING = "hello" }
  }
}

action "local_command" "greet" {
  for_each = toset(["a", "b"])
  config {
    command           = "sh"
    arguments         = ["-c", "echo greet ${each.key} in $(basename $PWD)"]
    working_directory = "sub"
  }
}

action "local_command" "fail" {
  config {
    command   = "sh"
    arguments = ["-c", "echo broken >&2; exit 3"]
  }
}
