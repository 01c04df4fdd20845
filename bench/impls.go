package bench

// Implementations returns the implementations built into this binary,
// vg first.
func Implementations() []Impl {
	return []Impl{VG, Filippo, Circl}
}

// ImplByName returns the implementation named name.
func ImplByName(name string) (Impl, bool) {
	for _, im := range Implementations() {
		if im.Name == name {
			return im, true
		}
	}
	return Impl{}, false
}
