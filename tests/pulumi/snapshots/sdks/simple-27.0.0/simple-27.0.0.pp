package {
  baseProviderName = "simple"
  baseProviderVersion = "27.0.0"
  baseProviderDownloadUrl = "https://github.com/pulumi/pulumi-simple/releases/v$${VERSION}"
}
