resource r "pkg:index:Thing"
{
  a = 1
}
