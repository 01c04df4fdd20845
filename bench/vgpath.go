package bench

// VGImplementation names vg's code path in this binary.
// TODO: mldsa.Implementation() once go/mldsa has it.
func VGImplementation() string { return "" }
