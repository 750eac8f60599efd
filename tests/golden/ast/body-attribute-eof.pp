a = 1
last = "no newline at end of file"