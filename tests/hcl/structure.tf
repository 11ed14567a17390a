# Structural elements: attributes, blocks with quoted and bare labels,
# one-line blocks, nested blocks, comments of all three kinds.
io_mode = "async" // trailing comment

service "http" web_proxy {
  listen_addr = "127.0.0.1:8080"

  /* a block comment
     over two lines */
  process "main" {
    command = ["/usr/local/bin/awesome-app", "server"]
  }

  process "mgmt" {
    command = ["/usr/local/bin/awesome-app", "mgmt"]
  }
  empty {}
  one { x = 1 }
}
