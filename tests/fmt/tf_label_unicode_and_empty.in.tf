thing "" "x" {
}
