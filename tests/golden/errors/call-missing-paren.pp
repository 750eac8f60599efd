a = ns::fn
