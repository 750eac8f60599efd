a = b[
  0
