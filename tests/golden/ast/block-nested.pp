outer "a" {
  x = 1
  middle {
    y = 2
    inner "b" "c" {
      z = 3
    }
  }
  middle {
    y = 4
  }
  w = 5
}
