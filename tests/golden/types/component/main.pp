component first "./comp" {
  name = "n"
  options {
    range = 2
  }
}

component second "./other" {
  peer = first[0].greeting
}

greetings = first[*].greeting
