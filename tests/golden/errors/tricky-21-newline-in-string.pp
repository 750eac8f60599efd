a = "first line
second line"
