resource "terraform_data" "a" {
  lifecycle {
    action_trigger {
      events  = [after_create, before_destroy, sometime, after_create]
      actions = [action.local_command.nope, terraform_data.a, module.m.x, action.a.b[0]]
    }
    action_trigger {
      events  = []
      actions = []
    }
  }
}
action "local_command" "x" {
  count    = 1
  for_each = {}
  linked_resource = terraform_data.a
  config {}
  config {}
}
