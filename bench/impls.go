package bench

// Implementations returns the implementations built into this binary,
// vg first.
func Implementations() []Impl {
	return []Impl{Filippo, Circl}
}

// VGImplementation names vg's code path in this binary.
func VGImplementation() string { return "" }
