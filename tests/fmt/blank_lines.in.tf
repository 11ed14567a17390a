a = 1



bbbb = 2
