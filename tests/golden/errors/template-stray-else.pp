a = "text%{else}more"
