x = invoke("simple-invoke:index:myInvoke")
