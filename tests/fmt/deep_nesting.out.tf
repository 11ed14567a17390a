a {
  b {
    c {
      d {
        e = 1
      }
    }
  }
}
