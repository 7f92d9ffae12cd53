!t = index
!u =
  // the alias on the next line
  !t
func.func @f() attributes {a = array<
    // a comment
    !u : 1>} {
  return
}
