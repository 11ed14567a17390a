	a	=	1
block {
	b = 2
}
