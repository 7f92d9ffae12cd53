!t = index
!u = !t
func.func @f() attributes {a = array< !u : 1>} {
  return
}
