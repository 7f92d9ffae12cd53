!t = i64
// array<index: 1>
func.func private @f() attributes {a = array<!t: 1, 2>, s = "array<index: 3>"}
