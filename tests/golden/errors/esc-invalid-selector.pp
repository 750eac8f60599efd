a = "bell \a here"
