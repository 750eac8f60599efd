nested = {
  a = {
    b = {
      c = 1
    }
  }
  list = [
    1,
    2,
  ]
  call = f(
    1,
    2,
  )
  paren = (
    1 +
    2
  )
  cond = x ? { a = 1 } : { a = 2 }
  heredoc = <<EOT
text
EOT
  after = 1
}
