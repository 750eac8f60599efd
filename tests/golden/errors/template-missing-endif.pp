a = "%{if x}yes"
