a = b ?
  c : d
