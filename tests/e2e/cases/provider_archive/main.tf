# The built-in hashicorp/archive provider: the archive bytes must equal
# upstream's (Go's archive/zip, archive/tar, compress/gzip); the sums in
# test.t come from tests/tools/archive_oracle.go and, for "upstream",
# from the provider's own acceptance test.
terraform {
  required_providers {
    archive = {
      source = "hashicorp/archive"
    }
  }
}

variable "content" {
  type    = string
  default = "hello world\n"
}

data "archive_file" "upstream" {
  type                    = "zip"
  source_content          = "This is some content"
  source_content_filename = "content.txt"
  output_path             = "out/upstream.zip"
}

data "archive_file" "dir" {
  type        = "zip"
  source_dir  = "src"
  excludes    = ["skip.log", "b/*.bin"]
  output_path = "out/dir.zip"
}

data "archive_file" "tgz" {
  type        = "tar.gz"
  source_dir  = "src"
  excludes    = ["skip.log", "b/*.bin"]
  output_path = "out/dir.tar.gz"
}

data "archive_file" "nosym" {
  type                        = "zip"
  source_dir                  = "src"
  excludes                    = ["skip.log"]
  exclude_symlink_directories = true
  output_file_mode            = "0644"
  output_path                 = "out/nosym.zip"
}

resource "archive_file" "res" {
  type                    = "zip"
  source_content          = var.content
  source_content_filename = "hello.txt"
  output_path             = "out/res.zip"
}

variable "nosym" {
  type    = bool
  default = false
}

resource "archive_file" "tres" {
  type                        = "tar.gz"
  source_dir                  = "src"
  excludes                    = ["**/*.bin", "skip.log"]
  exclude_symlink_directories = var.nosym
  output_file_mode            = "0644"
  output_path                 = "out/tres.tar.gz"
}

output "upstream" {
  value = [data.archive_file.upstream.output_base64sha256,
    data.archive_file.upstream.output_md5,
  data.archive_file.upstream.output_sha]
}
output "dir" {
  value = [data.archive_file.dir.output_sha256, data.archive_file.dir.output_size]
}
output "tgz" {
  value = data.archive_file.tgz.output_sha256
}
output "nosym" {
  value = data.archive_file.nosym.output_sha256
}
output "res" {
  value = [archive_file.res.output_sha256, archive_file.res.id == archive_file.res.output_sha]
}
