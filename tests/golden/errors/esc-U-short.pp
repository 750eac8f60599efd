a = "smile \U1F600"
