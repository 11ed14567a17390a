locals {
  ü = 1
  abc = 2
  "日本" = 3
}
