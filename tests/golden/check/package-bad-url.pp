package {
  baseProviderName        = "simple"
  baseProviderDownloadUrl = "not a url"
}
