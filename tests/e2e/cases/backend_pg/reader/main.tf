variable "conn_str" {
  type = string
}

data "terraform_remote_state" "pg" {
  backend   = "pg"
  workspace = "dev"
  config = {
    conn_str = var.conn_str
  }
}

output "from_dev" {
  value = data.terraform_remote_state.pg.outputs.a
}
