config peer {
}

output echoed {
  value = peer
}
