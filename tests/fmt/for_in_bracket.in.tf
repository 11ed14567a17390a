a = [for x in [1,2]: x]
