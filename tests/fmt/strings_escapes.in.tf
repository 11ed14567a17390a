a = "tab\there \"quoted\""
b = "$${literal}"
c = "%%{literal}"
