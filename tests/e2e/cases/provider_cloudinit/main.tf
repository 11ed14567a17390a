# Expected values (id, length, sha256 of rendered) come from Go 1.19 running
# the upstream provider's rendering (mime/multipart, textproto,
# compress/gzip, encoding/base64) on the same input; see test.t.
locals {
  big = join("", flatten([for i in range(7) : [
    for j in range(1000) : format("line %05d\n", i * 1000 + j)
  ]]))
}

data "cloudinit_config" "all" {
  gzip          = false
  base64_encode = false
  part {
    content_type = "text/x-shellscript"
    content      = "foo1"
    filename     = "foofile1.txt"
    merge_type   = "list()+dict()+str()"
  }
  part {
    content    = "bar1"
    filename   = "barfile1.txt"
    merge_type = "list()+dict()+str()"
  }
}

data "cloudinit_config" "empty" {
  gzip          = false
  base64_encode = false
  part {
    content_type = "text/cloud-config"
    content      = "abc"
  }
  part {
    content = ""
  }
  part {
    content_type = "text/cloud-config"
    content      = ""
  }
}

data "cloudinit_config" "slash" {
  gzip          = false
  base64_encode = false
  boundary      = "//"
  part {
    content_type = "text/x-shellscript"
    content      = "baz"
  }
}

data "cloudinit_config" "space" {
  gzip     = false
  boundary = "a b"
  part {
    content = "héllo wörld\n"
  }
}

data "cloudinit_config" "b64" {
  gzip = false
  part {
    content_type = "text/x-shellscript"
    content      = "heythere"
  }
}

data "cloudinit_config" "big" {
  gzip = false
  part {
    content = local.big
  }
  part {
    content_type = "text/x-shellscript"
    content      = "#!/bin/sh\necho hi\n"
  }
}

data "cloudinit_config" "gz" {
  part {
    content_type = "text/x-shellscript"
    content      = "heythere"
  }
}

data "cloudinit_config" "gzempty" {
  part {
    content = ""
  }
}

data "cloudinit_config" "gzbig" {
  gzip          = true
  base64_encode = true
  part {
    content = local.big
  }
  part {
    content_type = "text/x-shellscript"
    content      = "#!/bin/sh\necho hi\n"
  }
}

output "sums" {
  value = { for k, v in {
    all = data.cloudinit_config.all, empty = data.cloudinit_config.empty,
    slash = data.cloudinit_config.slash, space = data.cloudinit_config.space,
    b64 = data.cloudinit_config.b64, big = data.cloudinit_config.big,
    gz = data.cloudinit_config.gz, gzempty = data.cloudinit_config.gzempty,
    gzbig = data.cloudinit_config.gzbig,
  } : k => "${v.id} ${length(v.rendered)} ${sha256(v.rendered)}" }
}

output "gz" { value = data.cloudinit_config.gz.rendered }
output "defaults" {
  value = [data.cloudinit_config.gz.gzip, data.cloudinit_config.gz.base64_encode,
  data.cloudinit_config.gz.boundary, data.cloudinit_config.gz.part[0].content_type,
  data.cloudinit_config.gzempty.part[0].content_type]
}
