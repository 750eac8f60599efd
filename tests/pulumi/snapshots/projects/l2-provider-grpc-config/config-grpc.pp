package {
  baseProviderName = "config-grpc"
  baseProviderVersion = "1.0.0"
}
