a = "half \uD800 pair"
