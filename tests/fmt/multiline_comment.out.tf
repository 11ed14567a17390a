/*
   multi
     line
*/
resource "a" "b" {
  /* inside
  more */
  x = 1
}
