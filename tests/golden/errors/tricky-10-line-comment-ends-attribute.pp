a = 1 + # the comment ends the line
  2
