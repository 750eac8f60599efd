a = 1
b = "BOM at the start of the file is skipped"
