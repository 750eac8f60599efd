a = 1
# final comment with no newline