locals {
  fine = true
}
